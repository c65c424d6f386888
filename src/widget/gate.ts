import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Widget } from '../generated/prisma/client.js';
import { AppError, notFound } from '../platform/errors.js';
import { originAllowed } from './origins.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the widget surface's gate: the widget named in the path, called from one of its origins. */
    widget: Widget;
  }
}

const ALLOWED_HEADERS = 'authorization, content-type';
const EXPOSED_HEADERS = 'retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id';

/**
 * The one gate of `/v1/widgets/{id}/…`: the widget must exist and the request must come from one of
 * its origins (the browser's `Origin` header). CORS answers that origin only; any other gets 403 and
 * no CORS header, so a page elsewhere cannot read even the refusal, and the widget there draws nothing.
 * Preflights of an allowed origin are answered here.
 */
export async function widgetOriginGate(request: FastifyRequest, reply: FastifyReply) {
  const { id } = request.params as { id?: string };
  const widget = id && /^wdg_[0-9A-Za-z]{1,36}$/.test(id) ? await request.server.db.prisma.widget.findUnique({ where: { id } }) : null;
  if (!widget) throw notFound(`no widget "${id ?? ''}"`);
  const origin = request.headers.origin;
  if (!originAllowed(widget.origins, origin)) {
    throw new AppError(403, 'origin_not_allowed', origin
      ? `this widget is not allowed on ${origin}: add the origin to the widget's allowed origins`
      : 'Origin: missing; the widget answers only pages of its allowed origins');
  }
  reply.headers({ 'access-control-allow-origin': origin!, vary: 'origin', 'access-control-expose-headers': EXPOSED_HEADERS });
  if (request.method === 'OPTIONS') {
    return reply.code(204).headers({ 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': ALLOWED_HEADERS, 'access-control-max-age': '600' }).send();
  }
  request.widget = widget;
}

/** The visitor token of a request (`Authorization: Bearer wvt_…`), unchecked. */
export function visitorTokenOf(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}
