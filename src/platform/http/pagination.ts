import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `Link: <…>; rel="next"` (RFC 8288), besides the body's cursor, as GitHub's API pages: the
 * request's own path and parameters with `param` set to the next page's cursor. Nothing on the
 * last page. The target is a path-absolute reference, resolved against the request's URL.
 */
export function linkNext(request: FastifyRequest, reply: FastifyReply, param: string, next: string | number | null) {
  if (next === null) return;
  const [path, query = ''] = request.url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set(param, String(next));
  const safePath = path.replace(/[<>"\s]/g, (c) => encodeURIComponent(c));
  reply.header('link', `<${safePath}?${params.toString()}>; rel="next"`);
}
