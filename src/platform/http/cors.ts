import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the `/api` surface, for browser scripts and tools that call it with a personal key
 * (`Authorization: Bearer tsk_…`) from any origin. Never with cookies: no
 * Access-Control-Allow-Credentials, so a browser neither sends the session cookie on such a call
 * nor shows the page a response it got with one (`*` and credentials never go together); a
 * cross-origin request that changes something with only the cookie is still refused (403,
 * auth.ts). Registered before rate limiting and authentication so that preflights are answered
 * at once and 401s and 429s are readable too.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'etag, link, location, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy, x-request-id',
};

const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'authorization, content-type, if-match, if-none-match',
  // Browsers cap it (Chromium at 2 hours); a day where allowed.
  'access-control-max-age': '86400',
};

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

export function registerCors(app: FastifyInstance) {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isApi(request.url)) return;
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return reply.code(204).headers(PREFLIGHT_HEADERS).send();
    }
    reply.headers(CORS_HEADERS);
  });
}
