import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/**
 * The one error type domain code throws. `code` is stable (the `/v1` surface shows it);
 * `message` is for people and names the field or rule at fault.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, 'invalid_request', message);
export const unauthorized = (message = 'missing or invalid credentials') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'not allowed') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const unavailable = (message = 'service unavailable, retry shortly', retryAfterSeconds = 2) =>
  new AppError(503, 'unavailable', message, { 'retry-after': String(retryAfterSeconds) });

/** Which error body a URL gets: `{error, message}` under /v1, `{error}` everywhere else. */
export type Surface = 'v1' | 'default';
export const surfaceOf = (url: string): Surface => (url === '/v1' || url.startsWith('/v1/') ? 'v1' : 'default');

/** Stable codes for the /v1 surface, by status, when the error carries none of its own. */
const V1_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'unavailable',
};

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  reply.status(error.status);
  if (surfaceOf(request.url) === 'v1') {
    return reply.send({ error: error.code, message: error.message });
  }
  return reply.send({ error: error.message });
}

/** Turns anything thrown into an AppError; unknown errors become a 500 with no details. */
export function toAppError(error: unknown, request?: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const err = error as FastifyError & { code?: string; cause?: unknown; meta?: unknown };

  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0]!;
    return badRequest(describeValidationIssue(first, err.validationContext, request));
  }
  if (isDatabaseUnavailable(err)) return unavailable('database unavailable, retry shortly');

  // Backstops for values the schemas should have refused: a client's mistake is never a 500.
  const pgCode = postgresCode(err);
  if (err.code === 'P2020' || pgCode === '22003') return badRequest('a value is out of range');
  if (pgCode === '22021' || pgCode === '22P05') return badRequest('text: must not contain NUL characters');
  // "program limit exceeded" (a search document over tsvector's 1 MiB, an index row too large): too much text.
  if (pgCode === '54000') return badRequest('text: too long to store or index');
  if (pgCode === '40P01' || pgCode === '40001') return conflict('a concurrent request changed the same thing; try again');
  if (pgCode === '23503') return conflict('a concurrent request removed something this one refers to; try again');

  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('body: malformed JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('body: must not be empty when Content-Type is application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'body: too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'content-type: not supported here; send application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('content-length: does not match the body');
    case 'P2002':
      return conflict('already exists');
    // A write conflict or deadlock with a concurrent request, or a row it deleted meanwhile.
    case 'P2034':
      return conflict('a concurrent request changed the same thing; try again');
    case 'P2003':
      return conflict('a concurrent request removed something this one refers to; try again');
    case 'P2025':
      return notFound();
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(err.statusCode, V1_CODES[err.statusCode] ?? 'invalid_request', err.message);
  }
  return new AppError(500, 'internal_error', 'internal error');
}

/**
 * "title: must be 1-512 characters"; query and path fields are prefixed ("querystring.limit").
 * A field that is missing altogether is "name: required", whatever its schema's message (which
 * describes a wrong value, and zod's default says "received undefined").
 */
function describeValidationIssue(
  issue: { keyword: string; instancePath: string; message?: string; params: Record<string, unknown> },
  context: string | undefined,
  request: FastifyRequest | undefined,
): string {
  const where = context === 'body' || !context ? '' : `${context}.`;
  const path = issue.instancePath.split('/').filter(Boolean);
  const field = path.join('.');
  const keys = issue.params.keys as string[] | undefined;
  if (issue.keyword === 'unrecognized_keys' && keys?.length) {
    return `${where}${field ? `${field}.` : ''}${keys[0]}: unknown field`;
  }
  const name = field ? `${where}${field}` : (context ?? 'request');
  if (issue.keyword !== 'custom' && request && isMissing(validatedPart(request, context), path)) return `${name}: required`;
  return `${name}: ${issue.message ?? 'invalid'}`;
}

/** The raw request part a validation context names (what the schema was given). */
function validatedPart(request: FastifyRequest, context: string | undefined): unknown {
  switch (context) {
    case 'querystring':
      return request.query;
    case 'params':
      return request.params;
    case 'headers':
      return request.headers;
    default:
      return request.body;
  }
}

/** Whether `path` names nothing in `value`: the key (or the whole part) is absent, or undefined. */
function isMissing(value: unknown, path: string[]): boolean {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return true;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined;
}

/** A deadlock or serialisation failure: the transaction was rolled back and may be retried. */
export function isDatabaseConflict(error: unknown): boolean {
  const e = error as { code?: string; meta?: unknown };
  const pg = postgresCode(e);
  return e.code === 'P2034' || pg === '40P01' || pg === '40001';
}

/** Whether the error is PostgreSQL's `code` (SQLSTATE), as raised by a statement or a function of ours. */
export function isPostgresError(error: unknown, code: string): boolean {
  return postgresCode(error as { meta?: unknown }) === code;
}

/** The PostgreSQL error code behind a Prisma driver-adapter error, if any. */
function postgresCode(error: { meta?: unknown }): string | undefined {
  const cause = (error.meta as { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } } | undefined)
    ?.driverAdapterError?.cause;
  return cause?.originalCode ?? cause?.code;
}

/** Connection-level failures (refused, timed out, server gone) mean "retry later", not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const e = current as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    // P2028: a transaction could not start within its wait for a connection, or expired under way: with a database
    // that stopped answering, the pool's connections are all stuck (seen on a loaded CI box as a 500).
    if (typeof e.code === 'string' && ['P1001', 'P1002', 'P1017', 'P2028', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P03', '57014', '53300'].includes(e.code)) {
      return true;
    }
    if (e.kind === 'DatabaseNotReachable' || e.kind === 'ConnectionClosed' || e.kind === 'SocketTimeout') return true;
    if (typeof e.message === 'string' && /timeout exceeded when trying to connect|Connection terminated|database not answering|connect ECONNREFUSED|Can't reach database server|Server has closed the connection|Query read timeout|not queryable|statement timeout/i.test(e.message)) {
      return true;
    }
    // Prisma's raw queries (P2010) carry the driver adapter's error in meta, not in cause: a
    // connection the server closed mid-transaction (PostgreSQL stopped) is found there.
    pending.push(e.meta?.driverAdapterError, e.cause);
  }
  return false;
}

/** The one error handler and the 404 handler, shared by every surface. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound(`no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/**
 * Errors the router raises before a route is found (a malformed percent-encoding, a path
 * parameter over the length limit): the same body shape and request id as every other error.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError(414, 'uri_too_long', 'url: a path segment is too long')
      : badRequest('url: not a valid URL (malformed percent-encoding)');
  return sendError(request, reply, appError);
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'headers: too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'request: not received in time'],
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an unknown method, a 20 KB header,
 * broken syntax): answered on the socket with the surface's error body and a request id, like
 * every other error. The surface is read from the request line when there is one.
 */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: import('node:net').Socket) {
  if (socket.destroyed || !socket.writable) return;
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', 'invalid_request', 'request: malformed HTTP request (unknown method or bad syntax)'];
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const path = raw.split('\r\n')[0]?.split(' ')[1] ?? '';
  const body = JSON.stringify(surfaceOf(path) === 'v1' ? { error: code, message } : { error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}
