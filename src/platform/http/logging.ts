import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * Everything that may hold a secret, wherever it appears in a log object. Request logging below
 * never logs headers or bodies anyway; this is the second guard.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  // Plugins log options objects holding the request's headers (multipart's busboy options, at trace).
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.cookie',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'contentBase64',
  '*.contentBase64',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Path parameters of this route that are secrets (a link's token), `'*'` for a wildcard: the
     * request log writes `[redacted]` in their place. A parameter named like a secret (token,
     * secret, code, password, signature) is one without saying so.
     */
    secretParams?: readonly string[];
  }
  interface FastifyInstance {
    /** Every route with path parameters and those the request log redacts: for audits, and the test that walks them. */
    requestLogRoutes: readonly LoggedRoute[];
  }
}

export interface LoggedRoute {
  method: string | string[];
  url: string;
  params: string[];
  secret: string[];
}

/** Parameter names that are secrets wherever they appear. */
const SECRET_PARAM_NAME = /token|secret|code|password|signature/i;
/** A route pattern's parameters: `:name` (with an optional regex) and the wildcard `*`. */
const PARAM = /:(\w+)(?:\([^)]*\))?|\*/g;
/**
 * Our tokens by their prefix, wherever a path holds one (an unmatched route's path, a
 * parameter nobody declared): the second guard behind the declared parameters.
 */
const TOKEN_SHAPE = /\b(?:tsk|ans|wst|inv|set|eml|uns|whsec)_[0-9A-Za-z]+/g;
const REDACTED = '[redacted]';

const paramNames = (url: string) => [...url.matchAll(PARAM)].map((m) => m[1] ?? '*');
const isSecret = (name: string, declared: readonly string[] | undefined) => SECRET_PARAM_NAME.test(name) || (declared?.includes(name) ?? false);

/**
 * The path the request log writes: the route pattern with each parameter's value, secrets
 * replaced by `[redacted]`; token-shaped text is redacted anywhere (an unmatched path included).
 */
export function loggedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  const raw = request.url.split('?')[0]!;
  if (!pattern || request.is404) return raw.replace(TOKEN_SHAPE, REDACTED);
  const params = (request.params ?? {}) as Record<string, unknown>;
  const declared = request.routeOptions.config.secretParams;
  const path = pattern.replace(PARAM, (_match, name: string | undefined) => {
    const key = name ?? '*';
    if (isSecret(key, declared)) return REDACTED;
    const value = params[key];
    return typeof value === 'string' ? value : String(value ?? '');
  });
  return path.replace(TOKEN_SHAPE, REDACTED);
}

/** Records each route's parameters and which of them the request log redacts (`app.requestLogRoutes`). */
export function registerSecretPaths(app: FastifyInstance) {
  const routes: LoggedRoute[] = [];
  app.decorate('requestLogRoutes', routes);
  app.addHook('onRoute', (route) => {
    const params = paramNames(route.url);
    if (params.length === 0) return;
    const declared = (route.config as { secretParams?: readonly string[] } | undefined)?.secretParams;
    routes.push({ method: route.method, url: route.url, params, secret: params.filter((p) => isSecret(p, declared)) });
  });
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An incoming X-Request-Id is kept when it is sane (so a proxy's id threads through), else a new one. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * One log line per request, written when it completes: request id, route pattern, the path
 * without its query string (which may carry ids worth keeping out of logs) and with its secret
 * segments redacted (loggedPath), status and duration. Fastify's own "incoming request" line is dropped.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode;
    reply.log[status >= 500 ? 'error' : 'info'](
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        path: loggedPath(request),
        status,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        ...(error ? { err: error } : {}),
      },
      'request',
    );
  }
}

/** `X-Request-Id` on every response, errors and 404s included. */
export function registerRequestId(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
