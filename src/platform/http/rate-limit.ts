import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { addressOf } from './client-address.js';
import { AppError } from '../errors.js';
import { databaseCounters, redisCounters, storeOver } from './rate-limit-store.js';

/**
 * Tells, before any surface's gate runs, whose budget a request's credential spends: its identity
 * (`k:…`, `a:…`) when it is this identifier's kind of credential and works; null when it is this
 * kind and does not work (it then counts against the address); undefined when it is not this
 * kind. Each module that owns a credential registers one (`app.rateLimitIdentifiers.push`), with
 * how to read it (`rateLimitCredentials`) and who it proved to be (`rateLimitIdentities`), so the
 * ground layer knows no credential, header, cookie or request decoration; each should be cheap (cached) and refuse malformed tokens
 * without a lookup.
 */
export type CredentialIdentifier = (request: FastifyRequest) => Promise<string | null | undefined>;

/** Reads one credential a request may carry (a header, a cookie), raw; undefined when it carries none. */
export type CredentialReader = (request: FastifyRequest) => string | undefined;

/**
 * Who a request proved to be once its surface's gate has run (`k:…`, `u:…`), from what the
 * module's gate decorated the request with; null when it is not that module's credential.
 */
export type ProvenIdentity = (request: FastifyRequest) => string | null;

declare module 'fastify' {
  interface FastifyRequest {
    /** A hash of the credential headers the request carried (null: none); set by the rate limiter. */
    credentialFingerprint: string | null;
  }
  interface FastifyInstance {
    /** The credential identifiers the rate limiter asks, in order (see CredentialIdentifier). */
    rateLimitIdentifiers: CredentialIdentifier[];
    /** What a request's credentials are, to tell them apart without keeping them (see CredentialReader). */
    rateLimitCredentials: CredentialReader[];
    /** Who a request proved to be, asked in order after its gate (see ProvenIdentity). */
    rateLimitIdentities: ProvenIdentity[];
  }
}

/** Health checks, the docs and the metrics are never limited (SPEC §7). */
export function isUnlimited(url: string): boolean {
  return url === '/healthz' || url === '/readyz' || url === '/metrics' || url.startsWith('/api/docs') || url.startsWith('/v1/docs');
}

/** How long a credential that authenticated stays known to this process's limiter. */
const VERIFIED_TTL_MS = 10 * 60_000;
const MAX_VERIFIED = 10_000;

/** The credentials of a request, hashed (the raw token is kept nowhere); null when there are none. */
function fingerprint(readers: CredentialReader[], request: FastifyRequest): string | null {
  const parts = readers.map((read) => read(request));
  if (parts.every((part) => part === undefined)) return null;
  return createHash('sha256').update(parts.map((part) => part ?? '').join('\n')).digest('base64url');
}

/** Who a request proved to be, once its surface's gate has run: the budget it spends. */
function identityOf(identities: ProvenIdentity[], request: FastifyRequest): string | null {
  for (const identity of identities) {
    const proved = identity(request);
    if (proved !== null) return proved;
  }
  return null;
}

/**
 * SPEC §7's limit: RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS per credential (personal key,
 * answer key, workspace token, session user, assistant connection), else per client address; 429 with Retry-After and
 * RateLimit-Limit/-Remaining/-Reset (the IETF draft's names) in the surface's error shape.
 *
 * It runs as a root onRequest hook, before any surface's authentication. A credential this
 * process has seen authenticate (remembered by the hash of its headers, with the identity it
 * proved) counts against that identity with no lookup. One not seen yet is checked here by the
 * identifier its module registered (through the credential caches, whose answer the gate then
 * reuses), so a good credential of any kind gets its own budget from its first request, even while
 * others spend its address's. Anything else — no credential, a malformed, unknown or revoked one —
 * counts against the client address, so random tokens share one budget instead of each getting a
 * fresh one; malformed ones and those with a wrong checksum cost no lookup. Counters live in the
 * database (or Redis with REDIS_URL), so every process shares each budget.
 */
export const rateLimitPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const backend = config.REDIS_URL ? await redisCounters(config.REDIS_URL) : databaseCounters(app.db);
    app.addHook('onClose', async () => backend.close());

    // Exempt routes are marked as they are registered, so the hook below skips them for free.
    app.addHook('onRoute', (route) => {
      if (isUnlimited(route.url ?? '')) route.config = { ...(route.config as object), rateLimit: false } as never;
    });

    const identifiers: CredentialIdentifier[] = [];
    app.decorate('rateLimitIdentifiers', identifiers);
    const credentials: CredentialReader[] = [];
    app.decorate('rateLimitCredentials', credentials);
    const identities: ProvenIdentity[] = [];
    app.decorate('rateLimitIdentities', identities);
    const verified = new Map<string, { identity: string; at: number }>();
    const remember = (fp: string, identity: string) => {
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(fp, { identity, at: Date.now() });
    };
    const windowSeconds = Math.ceil(config.RATE_LIMIT_WINDOW_MS / 1000);

    await app.register(rateLimit, {
      global: false,
      max: config.RATE_LIMIT_MAX,
      timeWindow: config.RATE_LIMIT_WINDOW_MS,
      enableDraftSpec: true,
      store: storeOver(backend, { windowMs: config.RATE_LIMIT_WINDOW_MS, max: config.RATE_LIMIT_MAX }),
      // Redis down: serve unlimited rather than refuse everyone. The database down: the request
      // needs it anyway, and the store's error becomes the 503 it would have got.
      skipOnError: backend.kind === 'redis',
      keyGenerator: async (request) => {
        const fp = fingerprint(credentials, request);
        request.credentialFingerprint = fp;
        if (fp === null) return `ip:${addressOf(request.ip)}`;
        const known = verified.get(fp);
        if (known && Date.now() - known.at < VERIFIED_TTL_MS) return known.identity;
        // A credential seen for the first time here: checked now, so that a good one never waits
        // on an address whose budget others spent. Unknown ones stay on the address. The database
        // down: its error is the 503 the gate would have answered, without waiting twice.
        for (const identify of identifiers) {
          const identity = await identify(request);
          if (identity === undefined) continue;
          if (identity === null) break;
          remember(fp, identity);
          return identity;
        }
        return `ip:${addressOf(request.ip)}`;
      },
      errorResponseBuilder: (_request, context) =>
        new AppError(429, 'rate_limited', `too many requests: at most ${context.max} per ${windowSeconds} s; retry in ${context.after}`),
    });

    const limit = app.rateLimit();
    app.decorateRequest('credentialFingerprint', null);
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.config.rateLimit === false) return;
      await limit.call(app, request, reply);
    });

    // After the surface's gate: a credential that authenticated is known from now on.
    app.addHook('preHandler', async (request) => {
      const fp = request.credentialFingerprint;
      if (fp === null) return;
      const identity = identityOf(identities, request);
      if (identity === null) return;
      const known = verified.get(fp);
      const now = Date.now();
      if (known && known.identity === identity && now - known.at < VERIFIED_TTL_MS / 2) return;
      remember(fp, identity);
    });
    // A credential that stopped working (revoked, expired) counts against the address again.
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401 && request.credentialFingerprint !== null) verified.delete(request.credentialFingerprint);
    });
  },
  { name: 'rate-limit', dependencies: ['db'] },
);
