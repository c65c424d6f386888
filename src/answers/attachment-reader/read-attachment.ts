import { imageSize } from 'image-size';
import { getDocumentProxy } from 'unpdf';
import type { DecodeBudget } from './decode-budget.js';
import type { Ocr } from './ocr.js';
import { pdfImages } from './pdf-images.js';
import { scaledPng } from './scale-png.js';
import { type AttachmentKind, type AttachmentReading, MAX_TEXT } from './reading.js';

/** Pages of a PDF read for one answer. */
const MAX_PDF_PAGES = 50;

/**
 * Above this an image is a decompression bomb rather than a photo (a 108-megapixel phone photo
 * is about the largest we expect): its header says so before anything decodes it.
 */
export const MAX_IMAGE_PIXELS = 120_000_000;

/**
 * Images up to this size are OCR'd (a 5K screen is 14.7 megapixels). Tesseract decodes the pixels
 * in its WebAssembly memory, outside the heap limit and decode budget, and that memory does not
 * shrink (a reader grew by 15 MiB over 1280×720 screenshots): this bounds what one image can add.
 * Larger ones (photos) are checked by header only.
 */
export const MAX_OCR_PIXELS = 16_000_000;

/** What Tesseract's Leptonica decodes, as image-size names them; other images are checked by header only. */
const OCR_FORMATS = new Set(['png', 'jpg', 'webp', 'gif']);

/**
 * Reads one attachment; meant to run in a reader worker, whose decode budget and heap limit bound
 * what pdf.js may allocate (its page and character limits below bound only what is kept).
 */
export async function readAttachment({
  kind,
  contentBase64,
  budget,
  ocr,
  deadlineAt = Infinity,
}: {
  kind: AttachmentKind;
  contentBase64: string;
  budget: DecodeBudget;
  ocr: Ocr | null;
  /** The call's deadline: a scanned PDF's pictures are not started past half the time left. */
  deadlineAt?: number;
}): Promise<AttachmentReading> {
  if (kind === 'html') {
    // Loaded on a reader's first page only: linkedom and Readability cost a reader started for
    // PDFs and images heap it may not have (a 16 MB reader could not read an image after them).
    const { readHtml } = await import('./read-html.js');
    return readHtml(Buffer.from(contentBase64, 'base64'));
  }
  budget.start();
  const buffer = Buffer.from(contentBase64, 'base64');
  // A plain Uint8Array view: pdf.js copies a Buffer it is given.
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  if (kind === 'image') return readImage(bytes, ocr);
  const { text, title } = await pdfText(bytes);
  if (budget.exceeded) return { kind, status: 'too_large' };
  if (text) return { kind, status: 'read', text, ...(title ? { title } : {}) };
  // Decoded again: pdf.js took the first copy's memory (its buffer is detached now).
  return ocr ? scannedPdf(Buffer.from(contentBase64, 'base64'), ocr, deadlineAt) : { kind, status: 'unreadable' };
}

/**
 * A PDF without a text layer, read by OCR of its pictures (a scan): read when any picture was
 * recognised (with nothing found, like a photo), unreadable when none could be taken out. One
 * picture is decoded at a time, and none is started past half the time left to the call's
 * deadline: a long scan gives its first pages rather than a reader killed at the deadline.
 */
async function scannedPdf(bytes: Uint8Array, ocr: Ocr, deadlineAt: number): Promise<AttachmentReading> {
  const stopAt = Date.now() + (deadlineAt - Date.now()) / 2;
  const parts: string[] = [];
  let recognised = 0;
  let length = 0;
  for (const image of pdfImages(bytes, { maxImages: MAX_PDF_PAGES, maxPixels: MAX_OCR_PIXELS })) {
    try {
      const text = await ocr.recognize(image);
      recognised++;
      parts.push(text);
      length += text.length;
    } catch {
      // A picture whose pixels do not decode: the others may.
    }
    if (length >= MAX_TEXT || Date.now() >= stopAt) break;
  }
  if (recognised === 0) return { kind: 'pdf', status: 'unreadable' };
  const text = parts.join('\n').trim().slice(0, MAX_TEXT);
  return text ? { kind: 'pdf', status: 'read', text } : { kind: 'pdf', status: 'read' };
}

async function pdfText(bytes: Uint8Array): Promise<{ text: string | null; title: string | null }> {
  try {
    const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
    try {
      const pages = Math.min(pdf.numPages, MAX_PDF_PAGES);
      const parts: string[] = [];
      let length = 0;
      let title: string | null = null;
      for (let n = 1; n <= pages && length < MAX_TEXT; n++) {
        const content = await (await pdf.getPage(n)).getTextContent();
        if (n === 1) title = headingOf(content.items);
        const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
        parts.push(text);
        length += text.length;
      }
      const text = parts.join('\n').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
      if (!title) {
        const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
        title = typeof info?.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim().slice(0, 200) || null : null;
      }
      return { text: text || null, title };
    } finally {
      await pdf.destroy();
    }
  } catch {
    return { text: null, title: null };
  }
}

/**
 * A page's first heading: the first run of text set larger than the body (the size most of its
 * characters have), when it is short enough to be a title. Null on a page of one size.
 */
function headingOf(items: readonly object[]): string | null {
  const runs = items.filter((i): i is { str: string; transform: number[]; height: number } => 'str' in i && typeof i.str === 'string' && i.str.trim() !== '');
  const size = (i: { transform: number[]; height: number }) => Math.round(Math.abs(i.transform[3] ?? 0) || i.height);
  const characters = new Map<number, number>();
  for (const i of runs) characters.set(size(i), (characters.get(size(i)) ?? 0) + i.str.length);
  const body = [...characters].sort((a, b) => b[1] - a[1])[0]?.[0];
  const start = runs.findIndex((i) => body !== undefined && size(i) > body);
  if (start < 0) return null;
  const words: string[] = [];
  for (let k = start; k < runs.length && size(runs[k]!) === size(runs[start]!); k++) words.push(runs[k]!.str);
  const heading = words.join(' ').replace(/\s+/g, ' ').trim();
  return heading.length <= 200 ? heading : null;
}

async function readImage(bytes: Uint8Array, ocr: Ocr | null): Promise<AttachmentReading> {
  let size: ReturnType<typeof imageSize>;
  try {
    // image-size reads the header only: a 100000×100000 PNG costs its few bytes, not 40 GB.
    size = imageSize(bytes);
  } catch {
    return { kind: 'image', status: 'unreadable' };
  }
  const { width = 0, height = 0, type = '' } = size;
  if (width <= 0 || height <= 0) return { kind: 'image', status: 'unreadable' };
  if (width * height > MAX_IMAGE_PIXELS) return { kind: 'image', status: 'too_large' };
  if (!ocr || !OCR_FORMATS.has(type) || width * height > MAX_OCR_PIXELS) return { kind: 'image', status: 'read' };
  // A GIF's header gives its screen, but the OCR decodes every frame at the frame's own size, in
  // memory no cap of ours bounds: a 44 KB file can declare a 100×100 screen and an 8000×8000 frame.
  if (type === 'gif') {
    const pixels = gifFramePixels(bytes);
    if (pixels === null) return { kind: 'image', status: 'unreadable' };
    if (pixels > MAX_OCR_PIXELS) return { kind: 'image', status: 'read' };
  }
  let text: string;
  try {
    // Large or 16-bit PNGs are scaled down first: what Tesseract decodes stays in its memory for good.
    text = (await ocr.recognize((type === 'png' && scaledPng(bytes)) || bytes)).slice(0, MAX_TEXT);
  } catch {
    // The header parsed but the pixels did not decode (a truncated or forged file).
    return { kind: 'image', status: 'unreadable' };
  }
  // A photo without words is read all the same: nothing found is not unreadable.
  return text ? { kind: 'image', status: 'read', text } : { kind: 'image', status: 'read' };
}

/**
 * The pixels a GIF's frames add up to, read from their descriptors without decoding anything;
 * null when the block structure is broken. Walks the blocks once: header, logical screen and its
 * colour table, then extensions and images (each a run of length-prefixed sub-blocks).
 */
export function gifFramePixels(bytes: Uint8Array): number | null {
  const u16 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8);
  const skipSubBlocks = (at: number) => {
    while (at < bytes.length && bytes[at] !== 0) at += bytes[at]! + 1;
    return at + 1;
  };
  if (bytes.length < 13) return null;
  const screen = bytes[10]!;
  let at = 13 + (screen & 0x80 ? 3 * 2 ** ((screen & 0x07) + 1) : 0);
  let pixels = 0;
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) return pixels; // trailer
    if (block === 0x21) {
      at = skipSubBlocks(at + 2);
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) return null;
      pixels += u16(at + 5) * u16(at + 7);
      const packed = bytes[at + 9]!;
      at += 10 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
      at = skipSubBlocks(at + 1); // past the LZW minimum code size, then the image data
    } else {
      return null;
    }
  }
  return pixels; // no trailer: what the frames so far declare
}
