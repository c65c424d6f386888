import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong entity tag for a representation's bytes: any change of any byte changes it. */
export function etagOfBytes(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether the request's If-None-Match matches `etag`, so that a GET is answered 304: `*`, or a
 * listed tag equal to it by weak comparison (RFC 9110 §13.1.2: `W/"3"` matches `"3"`).
 */
export function ifNoneMatchHits(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === opaque);
}

/**
 * Sends `etag`; answers 304 with no body (and returns true) when If-None-Match already has it.
 * The route then returns the reply instead of the representation.
 */
export function sendEtag(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!ifNoneMatchHits(request, etag)) return false;
  reply.code(304);
  return true;
}
