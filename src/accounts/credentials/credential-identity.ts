import type { FastifyRequest } from 'fastify';
import type { PrismaClient } from '../../platform/db.js';
import type { CredentialIdentifier, CredentialReader } from '../../platform/http/rate-limit.js';
import { checkApiKey, resolveSession } from './resolve-credential.js';

const SESSION_COOKIE_VALUE = /(?:^|;\s*)tb_session=([^;]*)/;

/** The session cookie's value, read from the header (cookies are parsed after the rate limiter's hook); undefined when absent or empty. */
export const sessionCookieOf: CredentialReader = (request) => {
  const { cookie } = request.headers;
  return (cookie === undefined ? undefined : SESSION_COOKIE_VALUE.exec(cookie)?.[1]) || undefined;
};

/** The personal credentials a request may carry, for the rate limiter's fingerprint: a key header, Authorization, the session cookie. */
export const personalCredentials: CredentialReader[] = [
  (request) => {
    const apiKey = request.headers['x-api-key'];
    return apiKey === undefined ? undefined : String(apiKey);
  },
  (request) => request.headers.authorization,
  sessionCookieOf,
];

/**
 * Whose budget a request's personal key or session spends, read the way the `/api` gate reads
 * it (Authorization decides when present, else the session cookie): `k:<keyId>` or
 * `u:<userId>`; null for one that does not work; undefined when the request carries neither (an
 * answer key, a workspace token or a connector token is another module's). Answered from the
 * credential cache when it can be, and the gate that runs next reuses the answer.
 */
export function personalCredentialIdentifier(db: PrismaClient): CredentialIdentifier {
  return async (request: FastifyRequest) => {
    const { authorization } = request.headers;
    if (authorization !== undefined) {
      const token = /^Bearer +(\S+)$/i.exec(authorization)?.[1];
      if (!token?.startsWith('tsk_')) return undefined;
      const checked = await checkApiKey({ db, token });
      return 'key' in checked ? `k:${checked.key.keyId}` : null;
    }
    const sessionToken = sessionCookieOf(request);
    if (!sessionToken) return undefined;
    const session = await resolveSession({ db, token: sessionToken });
    return session ? `u:${session.userId}` : null;
  };
}
