import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * Bodies are JSON (multipart where a route says so). A text/plain or form body is a 415, not a
 * string; an empty body sent as application/json counts as no body (bodiless POST and DELETE are
 * fine); and a route that takes no body refuses one with fields, as unknown fields are refused
 * everywhere else.
 */
export function registerBodyRules(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (error) {
        done(poisoningError(body as string) ?? error, undefined);
        return;
      }
      done(null, value);
    });
  });

  app.addHook('preValidation', async (request) => {
    // An unknown route is a 404 whatever its body: the not-found handler says so, not this rule.
    if (request.is404 || request.routeOptions.schema?.body || request.body === undefined || request.body === null) return;
    const empty = typeof request.body === 'object' && !Array.isArray(request.body) && Object.keys(request.body).length === 0;
    if (!empty) throw badRequest('body: this endpoint takes no body');
  });
}

/**
 * Why the secure parser refused JSON that JSON.parse reads: a `__proto__` or
 * `constructor.prototype` key (prototype poisoning). Said so, rather than "malformed JSON".
 */
function poisoningError(text: string) {
  let proto = false;
  try {
    // JSON.parse makes `__proto__` an own key (escaped spellings included): the reviver sees it.
    JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__') proto = true;
      return value;
    });
  } catch {
    return null; // really malformed
  }
  const key = proto ? '__proto__' : 'constructor.prototype';
  return badRequest(`body: a "${key}" key is refused (it could alter object prototypes)`);
}
