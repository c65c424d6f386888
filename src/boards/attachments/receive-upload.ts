import { AppError, badRequest } from '../../platform/errors.js';
import { SNIFF_BYTES } from './sniff-mime-type.js';
import type { AttachmentStore } from './attachment-store.js';
import type { PendingBlob } from './blob-store.js';

/**
 * Reading the one file of an upload (`multipart/form-data`, field `file`) into the store: the
 * bytes are streamed, counted and never held whole in memory; whatever is refused (a second
 * file, another field, a bad name, too many bytes, none at all) leaves nothing behind.
 */

/** A part of a multipart body, as @fastify/multipart (busboy) hands it over. */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename?: string | undefined; mimetype: string; file: AsyncIterable<Uint8Array> }
  | { type: 'field'; fieldname: string };

export interface ReceivedFile {
  filename: string;
  /** What the client said the type was: a hint for the sniffer, never taken as it is. */
  declaredType: string;
  /** The first SNIFF_BYTES bytes (or `headBytes`, when the caller asked for more). */
  head: Buffer;
  blob: PendingBlob;
}

/** What a body may carry besides the file: boundaries and the part's headers (a long file name, twice). */
const MULTIPART_OVERHEAD = 16 * 1024;

const tooLarge = (maxBytes: number) =>
  new AppError(413, 'payload_too_large', `file: larger than the limit of ${maxBytes} bytes (MAX_ATTACHMENT_BYTES)`);

/** A parser's complaint about the body (cut short, no boundary, a part limit) is the client's: 400 (or 413). */
export function malformed(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 413) return new AppError(413, 'payload_too_large', 'body: too many parts; send one file, in a field named file');
  const reason = error instanceof Error ? `: ${error.message.replace(/^Multipart: /, '')}` : '';
  return badRequest(`body: malformed multipart/form-data${reason}`);
}

/**
 * The name to keep for display and downloads. Empty → "file". Refused (400 naming `filename`):
 * paths (`/`, `\`), `.` and `..`, control and bidirectional-override characters, more than 255
 * characters. Browsers send `"`, CR and LF in multipart file names as `%22`, `%0D`, `%0A`
 * (WHATWG HTML), so those three are decoded first.
 */
export function checkFilename(raw: string | undefined): string {
  const name = (raw ?? '').replace(/%(22|0d|0a)/gi, (escape) => decodeURIComponent(escape)).normalize('NFC');
  if (name === '') return 'file';
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(name)) throw badRequest('filename: must not contain control characters');
  if (/[\u202a-\u202e\u2066-\u2069]/u.test(name)) throw badRequest('filename: must not contain bidirectional override characters');
  if (/[/\\]/.test(name)) throw badRequest('filename: must be a bare file name, without / or \\');
  if (/^\.+$/.test(name)) throw badRequest('filename: must not be . or ..');
  if ([...name].length > 255) throw badRequest('filename: must be at most 255 characters');
  return name;
}

/** The file's bytes, refused with 413 past `maxBytes`; the first `headBytes` are copied into `head`. */
async function* limited(source: AsyncIterable<Uint8Array>, maxBytes: number, head: Buffer[], headBytes: number): AsyncIterable<Uint8Array> {
  let size = 0;
  let kept = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      if (kept < headBytes) {
        const part = Buffer.from(chunk.subarray(0, headBytes - kept));
        head.push(part);
        kept += part.length;
      }
      yield chunk;
    }
  } catch (error) {
    throw malformed(error);
  }
}

/**
 * Reads the whole body: exactly one file part named `file`, nothing else. The file is written to
 * the store (not yet committed); any refusal discards it.
 */
export async function receiveUpload(options: {
  parts: AsyncIterable<UploadPart>;
  store: AttachmentStore;
  maxBytes: number;
  /** The body's declared length (Content-Length), when known: far too large is refused before a byte is read. */
  bodyLength?: number | undefined;
  /** How many first bytes to keep in `head` (default SNIFF_BYTES): an avatar keeps all of its at most 2 MB, to measure every frame. */
  headBytes?: number;
}): Promise<ReceivedFile> {
  if (options.bodyLength !== undefined && options.bodyLength > options.maxBytes + MULTIPART_OVERHEAD) throw tooLarge(options.maxBytes);
  let received: ReceivedFile | null = null;
  const iterator = options.parts[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const next = await iterator.next().catch((error: unknown) => Promise.reject(malformed(error)));
      if (next.done) {
        done = true;
        break;
      }
      const part = next.value;
      if (part.type !== 'file' && part.fieldname === 'file') throw badRequest('file: must be a file (a part with a filename)');
      if (part.type !== 'file' || part.fieldname !== 'file') {
        throw badRequest(`${part.fieldname || 'field'}: unknown field; send only the file, in a field named file`);
      }
      if (received) throw badRequest('file: only one file per request');
      const filename = checkFilename(part.filename);
      const head: Buffer[] = [];
      const blob = await options.store.write(limited(part.file, options.maxBytes, head, Math.max(options.headBytes ?? 0, SNIFF_BYTES)));
      received = { filename, declaredType: part.mimetype, head: Buffer.concat(head), blob };
    }
  } catch (error) {
    await received?.blob.discard();
    throw error;
  } finally {
    // The rest of the body is drained (or the connection closed) by the route, not parsed.
    if (!done) await iterator.return?.().catch(() => {});
  }
  if (!received) throw badRequest('file: missing; send multipart/form-data with the file in a field named file');
  if (received.blob.size === 0) {
    await received.blob.discard();
    throw badRequest('file: is empty (0 bytes)');
  }
  return received;
}
