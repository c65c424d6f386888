import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../platform/errors.js';
import type { AttachmentStore } from './attachment-store.js';

/**
 * Attachments over HTTP: on the way out, Content-Disposition that survives any file name, single
 * byte ranges, and headers that stop a browser from rendering or sniffing what it downloads; on
 * the way in, what is left of a refused upload's body.
 */

/** RFC 5987 attr-char: what may stay unescaped in `filename*`. encodeURIComponent leaves `'()*` too. */
const encodeExtValue = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266). The
 * fallback, for clients that ignore `filename*`, keeps printable ASCII and replaces quotes,
 * backslashes, percent signs and everything else with `_`.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * A `Range` header against a file of `size` bytes: one range (`bytes=a-b`, `a-`, `-n`, the end
 * clamped to the file), 'unsatisfiable' (416), or null (no header, or one this server ignores and
 * answers with the whole file: several ranges, another unit, or bad syntax — RFC 9110 §14.2).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (m[2] !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** The stored file's identity for caching and `If-Range`: it never changes under one id. */
const etagOf = (a: { id: number; size: number }) => `"a${a.id}-${a.size}"`;

/**
 * Sends an attachment's bytes, streamed from the store: 200 with the whole file, 206 with one
 * range, or 416 with `Content-Range: bytes *\/size`. A HEAD gets the headers only.
 */
export async function sendAttachment(
  request: FastifyRequest,
  reply: FastifyReply,
  store: AttachmentStore,
  attachment: { id: number; filename: string; mimeType: string; size: number; storageKey: string | null; createdAt: Date },
) {
  // A link attachment has no bytes here: its address is its `url`.
  if (attachment.storageKey === null) throw notFound('attachment: a link, not a file; open its url');
  const file = await store.open(attachment.storageKey);
  // A row whose file is gone: its card is being deleted right now.
  if (!file) throw notFound('attachment: not found');
  try {
    const size = file.size;
    const etag = etagOf({ id: attachment.id, size });
    const ifRange = request.headers['if-range'];
    // A Range with an If-Range that no longer matches asks for the whole file (RFC 9110 §13.1.5).
    const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      throw new AppError(416, 'range_not_satisfiable', `range: not satisfiable for a file of ${size} bytes`, { 'content-range': `bytes */${size}` });
    }
    reply
      .header('content-type', attachment.mimeType)
      .header('content-disposition', contentDisposition(attachment.filename))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-cache')
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', attachment.createdAt.toUTCString());
    if (range) {
      reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    }
    reply.header('content-length', String(range ? range.end - range.start + 1 : size));
    if (request.method === 'HEAD') {
      // An empty stream: Fastify keeps the Content-Length of a streamed HEAD answer.
      await file.close();
      return reply.send(Readable.from([]));
    }
    return reply.send(file.stream(range ?? undefined));
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** How much of a refused upload's remaining body is read and dropped so the client sees the answer; past it, the connection closes. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Reads and drops what is left of a refused upload's body before the answer goes out, so that a
 * client still sending sees the answer instead of a reset; a body larger than `limit` is not
 * read: the connection closes after the answer (false).
 */
function drainBody(raw: IncomingMessage, limit: number): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(raw.readableEnded);
  if (Number(raw.headers['content-length']) > limit) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (complete: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        raw.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.readableEnded);
    raw.unpipe();
    raw.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    raw.resume();
  });
}

/** onSend of the upload route: the answer goes out once the body is read, or with `Connection: close`. */
export async function settleUploadBody(request: FastifyRequest, reply: FastifyReply) {
  if (!(await drainBody(request.raw, DRAIN_LIMIT))) reply.header('connection', 'close');
}
