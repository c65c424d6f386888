import { AppError } from '../platform/errors.js';
import { type AttachmentKind, type AttachmentReading, MAX_TEXT } from './attachment-reader/reading.js';
import type { AttachmentReader } from './attachment-reader/reader-pool.js';

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

/** Which reader an attachment goes to; null: ignored (video, audio, documents), as the seed says. */
function kindOf(mime: string): AttachmentKind | null {
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'image';
  return null;
}

/**
 * Reads what can be read, in the attachment reader's workers: PDFs' text (with unpdf, pdf.js's
 * maintained wrapper) and images checked by their header. A PDF with no text layer counts as
 * unreadable (no OCR), and so does anything past the reader's deadline, caps or queue.
 */
export async function readAttachments({ attachments, reader }: { attachments: AttachmentInput[]; reader: AttachmentReader | undefined }): Promise<ReadAttachments> {
  const candidates = attachments.flatMap((a) => {
    const mime = a.mime.toLowerCase();
    const kind = kindOf(mime);
    return kind ? [{ kind, mime, contentBase64: a.contentBase64 }] : [];
  });
  let readings: AttachmentReading[] = [];
  if (candidates.length) {
    if (!reader) throw new Error('readAttachments: PDFs and images need an attachment reader');
    readings = await reader.read(candidates.map(({ kind, contentBase64 }) => ({ kind, contentBase64 })));
  }
  const texts: string[] = [];
  const images: ReadAttachments['images'] = [];
  readings.forEach((reading, i) => {
    if (reading.status !== 'read') return;
    if (reading.text) texts.push(reading.text);
    if (reading.kind === 'image') images.push({ mime: candidates[i]!.mime, base64: candidates[i]!.contentBase64 });
  });
  return {
    text: texts.join('\n\n').slice(0, MAX_TEXT),
    images,
    unreadable: candidates.length > 0 && !readings.some((r) => r.status === 'read'),
    records: attachments.map((a) => ({ filename: a.filename ?? null, mime: a.mime })),
  };
}
