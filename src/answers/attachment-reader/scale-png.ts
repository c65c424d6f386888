import { inflateSync } from 'node:zlib';

/**
 * PNGs are scaled down to at most this many pixels before OCR: a screenshot's text stays readable
 * (2560×1440 is 3.7 megapixels), and what Tesseract's WebAssembly memory grows to, which it never
 * gives back, stays small (a 16-bit RGBA 4000×4000 PNG took it to 272 MiB as it was).
 */
export const OCR_SCALE_PIXELS = 4_000_000;

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * A PNG of more than `maxPixels`, or of 16 bits a sample, as an 8-bit grey PNM (P5) of at most
 * `maxPixels`, each pixel the mean of a square of the original's (on white where transparent). Null
 * when it needs no scaling, or is a kind read as it is (palette, interlaced, 1-4 bits, or not
 * inflating to what its header says). Row by row: one row of the original is held at a time,
 * besides the inflated data.
 */
export function scaledPng(bytes: Uint8Array, maxPixels = OCR_SCALE_PIXELS): Uint8Array | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 33 || data.readUInt32BE(0) !== 0x89504e47) return null;
  let at = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | null = null;
  const idat: Buffer[] = [];
  while (at + 8 <= data.length) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR' && body.length >= 13) {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colour: body[9]!, interlace: body[12]! };
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header) return null;
  const { width, height, depth, colour, interlace } = header;
  const channels = CHANNELS[colour];
  if (!channels || (depth !== 8 && depth !== 16) || interlace !== 0 || width === 0 || height === 0) return null;
  if (width * height <= maxPixels && depth === 8) return null;
  const factor = Math.max(1, Math.ceil(Math.sqrt((width * height) / maxPixels)));
  const bpp = (channels * depth) / 8;
  const stride = width * bpp;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  } catch {
    return null;
  }
  if (raw.length !== (stride + 1) * height) return null;
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const sums = new Uint32Array(outWidth * outHeight);
  const counts = new Uint16Array(outWidth * outHeight);
  const column = new Uint32Array(width);
  for (let x = 0; x < width; x++) column[x] = Math.floor(x / factor);
  let previous = Buffer.alloc(stride);
  let current = Buffer.alloc(stride);
  const step = depth / 8; // a sample's bytes; its first is its high byte
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    unfilter(filter, row, current, previous, bpp);
    const outRow = Math.floor(y / factor) * outWidth;
    const green = step;
    const blue = 2 * step;
    const alphaAt = (channels - 1) * step;
    const withAlpha = channels === 2 || channels === 4;
    for (let x = 0, p = 0; x < width; x++, p += bpp) {
      let grey = channels >= 3 ? (current[p]! * 77 + current[p + green]! * 150 + current[p + blue]! * 29) >> 8 : current[p]!;
      if (withAlpha) {
        const alpha = current[p + alphaAt]!;
        grey = (grey * alpha + 255 * (255 - alpha)) >> 8;
      }
      const cell = outRow + column[x]!;
      sums[cell] = sums[cell]! + grey;
      counts[cell] = counts[cell]! + 1;
    }
    [previous, current] = [current, previous];
  }
  const pnm = Buffer.alloc(outWidth * outHeight);
  for (let i = 0; i < pnm.length; i++) pnm[i] = Math.round(sums[i]! / counts[i]!);
  return Buffer.concat([Buffer.from(`P5\n${outWidth} ${outHeight}\n255\n`, 'latin1'), pnm]);
}

/** Undoes one row's PNG filter into `out`, from the row above (`above`, zeros for the first). */
function unfilter(filter: number, row: Buffer, out: Buffer, above: Buffer, bpp: number) {
  const n = row.length;
  if (filter === 0) {
    row.copy(out);
  } else if (filter === 1) {
    for (let x = 0; x < n; x++) out[x] = (row[x]! + (x >= bpp ? out[x - bpp]! : 0)) & 0xff;
  } else if (filter === 2) {
    for (let x = 0; x < n; x++) out[x] = (row[x]! + above[x]!) & 0xff;
  } else if (filter === 3) {
    for (let x = 0; x < n; x++) out[x] = (row[x]! + (((x >= bpp ? out[x - bpp]! : 0) + above[x]!) >> 1)) & 0xff;
  } else {
    for (let x = 0; x < n; x++) {
      const a = x >= bpp ? out[x - bpp]! : 0;
      const b = above[x]!;
      const c = x >= bpp ? above[x - bpp]! : 0;
      const p = a + b - c;
      const pa = p > a ? p - a : a - p;
      const pb = p > b ? p - b : b - p;
      const pc = p > c ? p - c : c - p;
      out[x] = (row[x]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
    }
  }
}
