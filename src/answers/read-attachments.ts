import { AppError } from '../platform/errors.js';
import { type AttachmentKind, type AttachmentReading, MAX_TEXT, type ReadingStatus } from './attachment-reader/reading.js';
import type { AttachmentReader } from './attachment-reader/reader-pool.js';

export interface AttachmentInput {
  mime: string;
  contentBase64: string;
  filename?: string | undefined;
}

/** One attachment as the conversation keeps it: name and type, never the bytes nor its text. */
// A type, not an interface: Prisma's JSON input needs the index signature a type alias implies.
export type AttachmentRecord = {
  filename: string | null;
  mime: string;
  /** Why a PDF or image was not read (skipped while every reader was busy, too large…); absent when read. */
  note?: string;
};

export interface ReadAttachments {
  /** Text of the readable PDFs and of what OCR found in images, for this answer only. */
  text: string;
  /** Images that were read (OCR'd, or their header parsed), with or without text. */
  images: { mime: string; base64: string }[];
  /** At least one image or PDF was sent and none could be read. */
  unreadable: boolean;
  /** What the conversation keeps. */
  records: AttachmentRecord[];
}

/** The conversation's note for an attachment that was not read. */
const NOTES: Record<Exclude<ReadingStatus, 'read'>, string> = {
  unreadable: 'not read: not a valid file, or a PDF without text',
  too_large: 'not read: past the size limits for reading',
  timed_out: 'not read: reading took too long',
  queue_full: 'skipped: every attachment reader was busy',
};

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
 * maintained wrapper) and the text in images (OCR, tesseract.js), which join the message the same
 * way. An image without words is read all the same; a PDF with no text layer counts as unreadable,
 * and so does anything past the reader's deadline, caps or queue.
 */
export async function readAttachments({ attachments, reader }: { attachments: AttachmentInput[]; reader: AttachmentReader | undefined }): Promise<ReadAttachments> {
  const candidates = attachments.flatMap((a, index) => {
    const mime = a.mime.toLowerCase();
    const kind = kindOf(mime);
    return kind ? [{ kind, mime, contentBase64: a.contentBase64, index }] : [];
  });
  let readings: AttachmentReading[] = [];
  if (candidates.length) {
    if (!reader) throw new Error('readAttachments: PDFs and images need an attachment reader');
    readings = await reader.read(candidates.map(({ kind, contentBase64 }) => ({ kind, contentBase64 })));
  }
  const texts: string[] = [];
  const images: ReadAttachments['images'] = [];
  const notes = new Map<number, string>();
  readings.forEach((reading, i) => {
    if (reading.status !== 'read') {
      notes.set(candidates[i]!.index, NOTES[reading.status]);
      return;
    }
    if (reading.text) texts.push(reading.text);
    if (reading.kind === 'image') images.push({ mime: candidates[i]!.mime, base64: candidates[i]!.contentBase64 });
  });
  return {
    text: texts.join('\n\n').slice(0, MAX_TEXT),
    images,
    unreadable: candidates.length > 0 && !readings.some((r) => r.status === 'read'),
    records: attachments.map((a, i) => {
      const note = notes.get(i);
      return { filename: a.filename ?? null, mime: a.mime, ...(note ? { note } : {}) };
    }),
  };
}
