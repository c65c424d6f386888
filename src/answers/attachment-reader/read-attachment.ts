import { imageSize } from 'image-size';
import { getDocumentProxy } from 'unpdf';
import type { DecodeBudget } from './decode-budget.js';
import { type AttachmentKind, type AttachmentReading, MAX_TEXT } from './reading.js';

/** Pages of a PDF read for one answer. */
const MAX_PDF_PAGES = 50;

/**
 * Above this an image is a decompression bomb rather than a photo (a 108-megapixel phone photo
 * is about the largest we expect): its header says so before anything decodes it.
 */
export const MAX_IMAGE_PIXELS = 120_000_000;

/**
 * Reads one attachment; meant to run in a reader worker, whose decode budget and heap limit bound
 * what pdf.js may allocate (its page and character limits below bound only what is kept).
 */
export async function readAttachment({ kind, contentBase64, budget }: { kind: AttachmentKind; contentBase64: string; budget: DecodeBudget }): Promise<AttachmentReading> {
  budget.start();
  const buffer = Buffer.from(contentBase64, 'base64');
  // A plain Uint8Array view: pdf.js copies a Buffer it is given.
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  if (kind === 'image') return readImage(bytes);
  const text = await pdfText(bytes);
  if (budget.exceeded) return { kind, status: 'too_large' };
  return text ? { kind, status: 'read', text } : { kind, status: 'unreadable' };
}

async function pdfText(bytes: Uint8Array): Promise<string | null> {
  try {
    const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
    try {
      const pages = Math.min(pdf.numPages, MAX_PDF_PAGES);
      const parts: string[] = [];
      let length = 0;
      for (let n = 1; n <= pages && length < MAX_TEXT; n++) {
        const content = await (await pdf.getPage(n)).getTextContent();
        const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
        parts.push(text);
        length += text.length;
      }
      const text = parts.join('\n').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
      return text || null;
    } finally {
      await pdf.destroy();
    }
  } catch {
    return null;
  }
}

function readImage(bytes: Uint8Array): AttachmentReading {
  try {
    // image-size reads the header only: a 100000×100000 PNG costs its few bytes, not 40 GB.
    const { width = 0, height = 0 } = imageSize(bytes);
    if (width <= 0 || height <= 0) return { kind: 'image', status: 'unreadable' };
    return { kind: 'image', status: width * height > MAX_IMAGE_PIXELS ? 'too_large' : 'read' };
  } catch {
    return { kind: 'image', status: 'unreadable' };
  }
}
