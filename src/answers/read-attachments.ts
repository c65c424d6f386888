import { imageSize } from 'image-size';
import { extractText, getDocumentProxy } from 'unpdf';
import { AppError } from '../platform/errors.js';

export interface AttachmentInput {
  mime: string;
  contentBase64: string;
  filename?: string | undefined;
}

export interface ReadAttachments {
  /** Text of the readable PDFs, for this answer only. */
  text: string;
  /** Images whose header parses (type and non-zero size). */
  images: { mime: string; base64: string }[];
  /** At least one image or PDF was sent and none could be read. */
  unreadable: boolean;
  /** What the conversation keeps: name and type, never the bytes. */
  records: { filename: string | null; mime: string }[];
}

/** Pages and characters of a PDF read for one answer: enough context, bounded work. */
const MAX_PDF_PAGES = 50;
const MAX_TEXT = 20_000;

/** Decoded size of plain base64 without decoding it. */
export function decodedSize(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** 413 attachment_too_large for the first attachment over the limit; checked before any decoding. */
export function checkAttachmentSizes(attachments: AttachmentInput[], maxBytes: number) {
  attachments.forEach((a, i) => {
    if (decodedSize(a.contentBase64) > maxBytes) {
      throw new AppError(413, 'attachment_too_large', `attachments.${i}: larger than ${maxBytes} bytes once decoded`);
    }
  });
}

async function pdfText(bytes: Buffer): Promise<string | null> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
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

function readableImage(bytes: Buffer): boolean {
  try {
    const { width, height } = imageSize(bytes);
    return (width ?? 0) > 0 && (height ?? 0) > 0;
  } catch {
    return false;
  }
}

/**
 * Reads what can be read: PDFs' text (with unpdf, pdf.js's maintained wrapper) and images checked
 * by their header. Other types (video, audio, documents) are ignored, as the seed says. A PDF with
 * no text layer counts as unreadable (no OCR).
 */
export async function readAttachments(attachments: AttachmentInput[]): Promise<ReadAttachments> {
  const texts: string[] = [];
  const images: ReadAttachments['images'] = [];
  let candidates = 0;
  let readable = 0;
  for (const a of attachments) {
    const mime = a.mime.toLowerCase();
    if (mime === 'application/pdf') {
      candidates++;
      const text = await pdfText(Buffer.from(a.contentBase64, 'base64'));
      if (text) {
        readable++;
        texts.push(text);
      }
    } else if (mime.startsWith('image/')) {
      candidates++;
      if (readableImage(Buffer.from(a.contentBase64, 'base64'))) {
        readable++;
        images.push({ mime, base64: a.contentBase64 });
      }
    }
  }
  return {
    text: texts.join('\n\n').slice(0, MAX_TEXT),
    images,
    unreadable: candidates > 0 && readable === 0,
    records: attachments.map((a) => ({ filename: a.filename ?? null, mime: a.mime })),
  };
}
