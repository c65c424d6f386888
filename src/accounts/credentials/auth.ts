import '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkApiKey, type Principal, resolveApiKey, resolveSession } from './resolve-credential.js';
import type { Config } from '../../config.js';
import { AppError, forbidden } from '../../platform/errors.js';

/** Who is calling: a person through their session cookie, or a script through a personal key. */
export interface Actor extends Principal {
  via: 'session' | 'key';
  keyId: number | null;
  sessionId: string | null;
  /** Sessions act with everything their roles allow ("write"). */
  permission: 'read' | 'write';
  /** The boards a limited key may reach; null = every board the user is a member of. */
  boardIds: number[] | null;
  /** The assistant connection's client name when acting through the connector (/mcp): activity says "via" it. */
  client?: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the surface's authentication hook; routes behind it may rely on it. */
    actor: Actor;
  }
}

export const SESSION_COOKIE = 'tb_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const unauthenticated = (message: string) =>
  new AppError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="taskboard"' });

/** The origin a browser page of ours sends: PUBLIC_BASE_URL's, else the request's own. */
function expectedOrigin(request: FastifyRequest, config: Config): string {
  if (config.PUBLIC_BASE_URL) return new URL(config.PUBLIC_BASE_URL).origin;
  return `${request.protocol}://${request.host}`;
}

/**
 * A cookie rides along on cross-site requests, so a state-changing one must come from our own
 * origin. Requests without an Origin header come from non-browser clients and are fine.
 */
function checkSameOrigin(request: FastifyRequest, config: Config) {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  // A page whose referrer policy is no-referrer posts with `Origin: null`; the browser's own
  // Sec-Fetch-Site (which no script can set) still tells a same-origin form from a foreign one.
  if (origin === 'null' && request.headers['sec-fetch-site'] === 'same-origin') return;
  if (origin !== undefined && origin !== expectedOrigin(request, config)) {
    throw forbidden('origin: cross-origin request refused');
  }
}

/** The web backend's guard for every state-changing request, whatever its credential (login too). */
export function sameOriginOnly(config: Config) {
  return async (request: FastifyRequest) => checkSameOrigin(request, config);
}

async function sessionActor(request: FastifyRequest, config: Config): Promise<Actor | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const session = await resolveSession({ db: request.server.db.prisma, token });
  if (!session) throw unauthenticated('session: expired or ended; log in again');
  checkSameOrigin(request, config);
  const { sessionId, ...principal } = session;
  return { ...principal, via: 'session', keyId: null, sessionId, permission: 'write', boardIds: null };
}

/**
 * The one gate of `/api`, in the spec's order: 401 (no, unknown, revoked or expired credential,
 * or a token of another service), then 403 for a read-only key on anything but GET/HEAD.
 * Board reach (404 outside a limited key's boards) and roles (403) are the boards module's.
 */
export function apiAuthentication(config: Config) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer +(\S+)$/i.exec(header);
      if (!match) throw unauthenticated('authorization: expected "Bearer <API key>"');
      const token = match[1]!;
      if (!token.startsWith('tsk_')) throw unauthenticated('authorization: not a task-board API key (tsk_…)');
      const checked = await checkApiKey({ db: request.server.db.prisma, token });
      if ('refused' in checked) {
        throw unauthenticated(
          checked.refused === 'blocked'
            ? 'authorization: the account that owns this API key is blocked'
            : 'authorization: API key is invalid, revoked or expired',
        );
      }
      const { key } = checked;
      const { keyId, permission, boardIds, ...principal } = key;
      if (permission === 'read' && request.method !== 'GET' && request.method !== 'HEAD') {
        throw forbidden('this API key is read-only: only GET requests are allowed');
      }
      request.actor = { ...principal, via: 'key', keyId, sessionId: null, permission, boardIds };
      return;
    }
    const actor = await sessionActor(request, config);
    if (!actor) throw unauthenticated('authorization: missing; send "Authorization: Bearer tsk_…"');
    request.actor = actor;
  };
}

/**
 * The gate of the web backend (`/account`, `/admin`, `/auth/me`): a session only. API keys
 * cannot manage keys or reach administration, whatever their permission.
 */
export function sessionAuthentication(config: Config) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (request.headers.authorization !== undefined) {
      throw unauthenticated('API keys are not accepted here; log in with a session');
    }
    const actor = await sessionActor(request, config);
    if (!actor) throw unauthenticated('session: not logged in');
    request.actor = actor;
  };
}

/**
 * The request's credential resolved again, now: for long-lived responses (event streams) that
 * must end when the key is revoked or expires, or the user is blocked or deleted. Null when it no
 * longer works. Cheap: credentials are cached for up to a second.
 */
export async function reauthenticate(request: FastifyRequest): Promise<Actor | null> {
  const db = request.server.db.prisma;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
    const key = token ? await resolveApiKey({ db, token }) : null;
    if (!key) return null;
    const { keyId, permission, boardIds, ...principal } = key;
    return { ...principal, via: 'key', keyId, sessionId: null, permission, boardIds };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  const session = cookie ? await resolveSession({ db, token: cookie }) : null;
  if (!session) return null;
  const { sessionId, ...principal } = session;
  return { ...principal, via: 'session', keyId: null, sessionId, permission: 'write', boardIds: null };
}
