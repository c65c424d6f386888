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

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An incoming X-Request-Id is kept when it is sane (so a proxy's id threads through), else a new one. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * One log line per request, written when it completes: request id, route pattern (not the URL
 * with its query string, which may carry ids worth keeping out of logs), status and duration.
 * Fastify's own "incoming request" line is dropped.
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
        path: request.url.split('?')[0],
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
