import type { OcrLanguage } from './ocr.js';

/** What a reader can read (`html`: a page for the knowledge import); other types are ignored before they reach one. */
export type AttachmentKind = 'pdf' | 'image' | 'html';

/**
 * `read`: text (PDF), or an image whose pixels were OCR'd (with or without text found), or whose
 * header parses (types and sizes not OCR'd). `unreadable`: not a valid file, or a PDF without a
 * text layer. `too_large`: past a cap (decoded bytes, the reader's heap, pixels).
 * `timed_out`: past the call's deadline. `queue_full`: skipped, every reader busy and the queue full.
 */
export type ReadingStatus = 'read' | 'unreadable' | 'too_large' | 'timed_out' | 'queue_full';

/** One attachment read. */
export interface AttachmentReading {
  kind: AttachmentKind;
  status: ReadingStatus;
  /** A PDF's text, or the text OCR found in an image; at most MAX_TEXT characters. */
  text?: string;
  /** A PDF's title: its first page's first heading (text larger than the body's), else its metadata's Title. */
  title?: string;
  /** Why it was not read, in words, when the status alone does not say (an HTML page nested too deeply). */
  detail?: string;
}

/** Characters of attachment text one answer reads: enough context, bounded work. */
export const MAX_TEXT = 20_000;

/** What the pool sends a reader: one attachment. */
export interface ReadMessage {
  id: number;
  kind: AttachmentKind;
  contentBase64: string;
  /** When the call's deadline passes (Date.now() time): work that can stop early stops before it. */
  deadlineAt: number;
}

/**
 * What a reader sends back: once when it can take work, then once per attachment (`done`).
 * `memoryBytes`: what the reader holds that it cannot give back (its OCR engine's WebAssembly
 * memory and its V8 heap). `loading`, then `loaded`: the reader loads code for this attachment
 * first (the HTML reader, on its first page), which took `ms`; the call's deadline waits for it.
 */
export type ReaderMessage =
  | { type: 'ready' }
  | { type: 'loading'; id: number }
  | { type: 'loaded'; id: number; ms: number }
  | { type: 'done'; id: number; reading: AttachmentReading; memoryBytes: number };

/** The pool's workerData for a reader. */
export interface ReaderData {
  maxDecodedBytes: number;
  /** Languages images are OCR'd in; none: images are checked by header only. */
  ocrLanguages: OcrLanguage[];
}
