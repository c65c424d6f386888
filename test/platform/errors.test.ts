import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Prisma } from '../../src/generated/prisma/client.js';
import { conflict, toAppError } from '../../src/platform/errors.js';
import { loginCookie, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Routes that exist only in this test, one per surface, to exercise the shared handlers. */
const probe: FastifyPluginAsyncZod = async (app) => {
  const body = z.strictObject({ title: z.string().min(1).max(512), count: z.number().int().optional() });
  app.post('/echo', { schema: { body } }, async (req) => req.body);
  app.get('/boom', async () => {
    throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
  });
  app.get('/conflict', async () => {
    throw conflict('name: already taken');
  });
};

const t = useTestApp();
beforeAll(async () => {
  await t.app.register(probe, { prefix: '/api/_probe' });
  await t.app.register(probe, { prefix: '/v1/_probe' });
});

const json = (payload: unknown) => ({ 'content-type': 'application/json', payload: JSON.stringify(payload) });

describe('error bodies under /api', () => {
  it('answers an unknown route with 404 {error} only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('answers a known path with a method it lacks with 404', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/_probe/echo' });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('names the field at fault on a validation error', async () => {
    const { payload } = json({ title: '' });
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringMatching(/^title: /) });
  });

  it('refuses unknown body fields with 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x', colour: 'red' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'colour: unknown field' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"title": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body: malformed JSON' });
  });

  it('says "required" for a field that is missing, whatever its schema says of a wrong value', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"count": 1}' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'title: required' });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"title": 5}' });
    expect(wrong.json().error).toMatch(/^title: (?!required)/);
    // On a real route whose field carries its own message for wrong values.
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const board = await t.app.inject({ method: 'POST', url: '/api/boards', headers: auth, payload: {} });
    expect(board.json()).toEqual({ error: 'name: required' });
    const nobody = await t.app.inject({ method: 'POST', url: '/api/boards', headers: auth });
    expect(nobody.json()).toEqual({ error: 'body: required' });
  });

  it('says an id beyond PostgreSQL\'s integers is out of range, in a path and in a body', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const path = await t.app.inject({ method: 'GET', url: '/api/cards/2147483648', headers: auth });
    expect(path.json()).toEqual({ error: 'params.id: must be at most 2147483647' });
    const big = await t.app.inject({ method: 'GET', url: '/api/boards/99999999999999999999', headers: auth });
    expect(big.json()).toEqual({ error: 'params.id: must be at most 2147483647' });
    const body = await t.app.inject({ method: 'POST', url: '/api/cards/1/move', headers: auth, payload: { listId: 2147483648 } });
    expect(body.json()).toEqual({ error: 'listId: must be at most 2147483647' });
    expect((await t.app.inject({ method: 'GET', url: '/api/cards/0', headers: auth })).json()).toEqual({ error: 'params.id: must be a positive integer id' });
  });

  it('says a __proto__ or constructor.prototype key is refused, not that the JSON is malformed', async () => {
    for (const payload of ['{"title": "x", "__proto__": {"admin": true}}', '{"title": "x", "\\u005f_proto__": {}}']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ error: 'body: a "__proto__" key is refused (it could alter object prototypes)' });
    }
    const ctor = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"title": "x", "constructor": {"prototype": {}}}' });
    expect(ctor.json()).toEqual({ error: 'body: a "constructor.prototype" key is refused (it could alter object prototypes)' });
    const v1 = await t.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"__proto__": {}}' });
    expect(v1.json()).toEqual({ error: 'invalid_request', message: 'body: a "__proto__" key is refused (it could alter object prototypes)' });
  });

  it('answers a wrong content type with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': type }, payload: 'title=x' });
      expect(res.statusCode, type).toBe(415);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
  });

  it('answers a JSON body over 1 MiB with 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x'.repeat(1024 * 1024) }) });
    expect(res.statusCode).toBe(413);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('passes domain errors through with their status', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'name: already taken' });
  });

  it('hides unexpected errors behind 500 "internal error" and logs them with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal error' });
    expect(res.body).not.toMatch(/secret_table|app\.ts|at /);
    const id = res.headers['x-request-id'];
    const logged = t.logs.lines.find((l) => l.requestId === id && l.msg === 'request failed');
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret_table');
  });
});

describe('error bodies under /v1', () => {
  it('uses {error: code, message}', async () => {
    const cases = [
      { url: '/v1/nothing', method: 'GET', status: 404, code: 'not_found' },
      { url: '/v1/_probe/echo', method: 'POST', status: 400, code: 'invalid_request', payload: '{"title": ""}' },
      { url: '/v1/_probe/echo', method: 'POST', status: 400, code: 'invalid_request', payload: '{' },
      { url: '/v1/_probe/boom', method: 'GET', status: 500, code: 'internal_error' },
    ] as const;
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        ...('payload' in c ? { headers: { 'content-type': 'application/json' }, payload: c.payload } : {}),
      });
      expect(res.statusCode, c.url).toBe(c.status);
      expect(res.json(), c.url).toEqual({ error: c.code, message: expect.any(String) });
    }
  });

  it('names the field in the message of a validation error', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"title": "x", "count": 1.5}' });
    expect(res.json()).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^count: /) });
  });
});

describe('request ids and request logs', () => {
  it('sets X-Request-Id on every response, keeping a sane incoming one', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const missing = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const insane = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a b\u0007<script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one line per request with id, route, status and duration, and no secrets', async () => {
    const before = t.logs.raw.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_probe/echo?token=tsk_should_not_appear',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer tsk_secretsecretsecret',
        cookie: 'sid=cookie-secret-value',
        'x-api-key': 'ans_secretkeyvalue',
      },
      payload: JSON.stringify({ title: 'hello', password: 'hunter2' }),
    });
    const lines = t.logs.raw.slice(before);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ requestId: res.headers['x-request-id'], route: '/api/_probe/echo', method: 'POST', status: 400 });
    expect(line.durationMs).toEqual(expect.any(Number));
    for (const secret of ['tsk_', 'cookie-secret', 'ans_secret', 'hunter2']) expect(lines[0]).not.toContain(secret);
  });
});

describe('unknown routes with a body', () => {
  it('are 404 in the surface\'s shape, not 400 "takes no body"', async () => {
    const api = await t.app.inject({ method: 'POST', url: '/api/no/such/route', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'no route POST /api/no/such/route' });
    const v1 = await t.app.inject({ method: 'POST', url: '/v1/anything', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(v1.statusCode).toBe(404);
    expect(v1.json()).toEqual({ error: 'not_found', message: 'no route POST /v1/anything' });
  });
});

describe('a database connection closed mid-request', () => {
  // Seen by `npm run chaos` when PostgreSQL stops: Prisma's raw queries report it as P2010 with the
  // driver adapter's error in meta. It is the database being unavailable (503), not a 500.
  it('is 503 database unavailable, as a refused connection is', () => {
    const error = new Prisma.PrismaClientKnownRequestError('Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`', {
      code: 'P2010',
      clientVersion: '7.10.1',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } },
    });
    const answer = toAppError(error);
    expect(answer.status).toBe(503);
    expect(answer.message).toContain('database unavailable');
  });

  it('is 503 too when a transaction cannot start in time (P2028: every pooled connection stuck on a silent server)', () => {
    const error = new Prisma.PrismaClientKnownRequestError('Transaction API error: Unable to start a transaction in the given time.', { code: 'P2028', clientVersion: '7.10.1' });
    expect(toAppError(error).status).toBe(503);
  });
});

describe('client mistakes are 4xx, never 500', () => {
  it('answers ids beyond 32 bits with 400', async () => {
    const user = await makeUser(t.db, { siteAdmin: true });
    const { auth } = await makeKey(t.db, user.id);
    const session = await loginCookie(t.app, user.email, user.password);
    for (const [method, url, headers, payload] of [
      ['GET', '/api/boards/2147483648', auth],
      ['GET', '/api/boards/99999999999999999999', auth],
      ['DELETE', '/account/keys/2147483648', session],
      ['POST', '/admin/users/2147483648/block', session],
      ['POST', '/account/keys', session, { name: 'k', expiresIn: 'never', boardIds: [2147483648] }],
    ] as const) {
      const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('answers text with NUL characters with 400 naming the field', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/boards', headers: auth, payload: { name: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('name: must not contain NUL characters');
  });

  it('names the fix in a 415', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/boards', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'x' });
    expect(res.json()).toEqual({ error: 'content-type: not supported here; send application/json' });
  });
});

describe('bodiless requests', () => {
  it('accept an empty JSON body and refuse one with fields', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const victim = await makeUser(t.db);
    const session = await loginCookie(t.app, admin.email, admin.password);
    const json = { ...session, 'content-type': 'application/json' };
    expect((await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/block`, headers: json, payload: '' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/unblock`, headers: json, payload: '{}' })).statusCode).toBe(200);
    const withFields = await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/block`, headers: json, payload: '{"x":1}' });
    expect(withFields.statusCode).toBe(400);
    expect(withFields.json()).toEqual({ error: 'body: this endpoint takes no body' });
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: json, payload: '' })).statusCode).toBe(204);
  });
});
