import { imageSize } from 'image-size';
import { inflateSync } from 'node:zlib';

/** Below this a picture in a PDF is a logo or an icon, not a scanned page. */
const MIN_PIXELS = 40_000;

/**
 * The pictures of a scanned PDF (one without a text layer), as files Tesseract decodes itself,
 * one at a time (each is decoded only when the caller takes it, and can be let go before the
 * next): a JPEG stream (DCTDecode, what scanners write) as it is in the file, its own header
 * within `maxPixels`; an 8-bit grey or RGB FlateDecode bitmap as a PNM, inflated by zlib with its
 * output capped at the size its dictionary declares. Nothing goes through pdf.js, whose image
 * decoding has no size limit of its own: a picture costs what an attached image of its pixels costs.
 *
 * Image streams are found by their dictionaries, which are never inside compressed object streams
 * (a stream cannot be). Other encodings (CCITT fax, JBIG2, JPEG 2000, 1-bit or indexed colour) and
 * encrypted files are not read. At most `maxImages`.
 */
export function* pdfImages(bytes: Uint8Array, { maxImages, maxPixels }: { maxImages: number; maxPixels: number }): Generator<Uint8Array> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const text = buffer.toString('latin1');
  if (/\/Encrypt\b/.test(text)) return;
  let taken = 0;
  // A dictionary (nested two levels at most, as DecodeParms are) followed by `stream`.
  const streams = /<<((?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>)*)>>\s*stream\r?\n/g;
  for (let match = streams.exec(text); match && taken < maxImages; match = streams.exec(text)) {
    const dict = match[1]!;
    if (!/\/Subtype\s*\/Image\b/.test(dict)) continue;
    const start = match.index + match[0].length;
    const end = streamEnd(text, dict, start);
    // No `endstream` after this one: none after it either (and looking again for each is quadratic).
    if (end === null) return;
    streams.lastIndex = end;
    const width = numberIn(dict, 'Width');
    const height = numberIn(dict, 'Height');
    if (!width || !height || width * height < MIN_PIXELS || width * height > maxPixels) continue;
    const filters = [...(/\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? '').matchAll(/\/(\w+)/g)].map((m) => m[1]);
    const data = buffer.subarray(start, end);
    let image: Uint8Array | null = null;
    if (filters.length === 1 && filters[0] === 'DCTDecode') image = jpegWithin(data, maxPixels);
    else if (filters.length === 1 && filters[0] === 'FlateDecode' && numberIn(dict, 'BitsPerComponent') === 8) {
      image = flateBitmap(data, width, height, numberIn(dict, 'Predictor') ?? 1);
    }
    if (image) {
      taken++;
      yield image;
    }
  }
}

/** The JPEG if its own header (what Tesseract decodes by, whatever the dictionary says) is within `maxPixels`. */
function jpegWithin(data: Uint8Array, maxPixels: number): Uint8Array | null {
  try {
    const { width = 0, height = 0, type } = imageSize(data);
    return type === 'jpg' && width > 0 && height > 0 && width * height <= maxPixels ? data : null;
  } catch {
    return null;
  }
}

function numberIn(dict: string, key: string): number | null {
  // A direct number only: `/Length 12 0 R` names another object (and must not read as 12, nor 1).
  const m = new RegExp(`/${key}\\s+(\\d+)(?!\\d|\\s+\\d+\\s+R)`).exec(dict);
  return m ? Number(m[1]) : null;
}

/** Where the stream's data ends: its direct /Length, else just before `endstream`. */
function streamEnd(text: string, dict: string, start: number): number | null {
  const length = numberIn(dict, 'Length');
  if (length !== null && text.startsWith('endstream', skipEol(text, start + length))) return start + length;
  const end = text.indexOf('endstream', start);
  if (end < 0) return null;
  let at = end;
  if (text[at - 1] === '\n') at--;
  if (text[at - 1] === '\r') at--;
  return at;
}

function skipEol(text: string, at: number) {
  while (text[at] === '\r' || text[at] === '\n' || text[at] === ' ') at++;
  return at;
}

/**
 * An 8-bit FlateDecode bitmap as a PNM (grey P5 or RGB P6), its components told by the inflated
 * size; null when it is neither, or does not inflate within what its size allows.
 */
function flateBitmap(data: Uint8Array, width: number, height: number, predictor: number): Uint8Array | null {
  const png = predictor >= 10;
  let raw: Buffer;
  try {
    raw = inflateSync(data, { maxOutputLength: 3 * width * height + (png ? height : 0) });
  } catch {
    return null;
  }
  const components = [1, 3].find((n) => raw.length === (width * n + (png ? 1 : 0)) * height);
  if (!components) return null;
  const pixels = png ? unfilterPng(raw, width * components, height, components) : raw;
  const header = Buffer.from(`P${components === 1 ? 5 : 6}\n${width} ${height}\n255\n`, 'latin1');
  return Buffer.concat([header, pixels]);
}

/** Undoes PNG's per-row filters (PDF's /Predictor 10-15): each row starts with its filter type. */
function unfilterPng(raw: Buffer, stride: number, height: number, bpp: number): Buffer {
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const at = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[at + x - bpp]! : 0;
      const b = y > 0 ? out[at + x - stride]! : 0;
      const c = x >= bpp && y > 0 ? out[at + x - stride - bpp]! : 0;
      let value = row[x]!;
      if (type === 1) value += a;
      else if (type === 2) value += b;
      else if (type === 3) value += (a + b) >> 1;
      else if (type === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        value += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[at + x] = value & 0xff;
    }
  }
  return out;
}
