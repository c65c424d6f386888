import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/accounts/credentials/tokens.js';
import { runCommand } from '../../src/cli/run-command.js';
import { buildApp } from '../../src/app.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';
import { storeOver } from '../../src/platform/http/rate-limit-store.js';
import { redisAnswers } from '../net.js';
import { SseClient } from '../sse-client.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

const LIMIT = { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' };
const randomToken = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Sends `n` requests one after the other; returns their statuses. */
async function statuses(n: number, send: (i: number) => Promise<{ statusCode: number }>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(i)).statusCode);
  return out;
}

describe('rate limits (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS)', () => {
  it('limits a personal key on its own budget: 429 {error} with Retry-After and RateLimit-* headers; another key is unaffected', async () => {
    t = await buildTestApp(LIMIT);
    const user = await makeUser(t.db);
    const a = await makeKey(t.db, user.id);
    const b = await makeKey(t.db, user.id);
    const get = (auth: object) => t!.app.inject({ method: 'GET', url: '/api/boards', headers: auth as Record<string, string> });

    // A key's first request in this process is checked at once and counts against the key.
    const first = await get(a.auth);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(await statuses(4, () => get(a.auth))).toEqual([200, 200, 200, 200]);

    const limited = await get(a.auth);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.stringMatching(/too many requests/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-request-id']).toBeTruthy();

    expect(await statuses(3, () => get(b.auth))).toEqual([200, 200, 200]);
    expect((await get(a.auth)).statusCode).toBe(429);
  });

  it('counts requests without a credential per client address, 404s included; health, readiness and docs stay unlimited', async () => {
    t = await buildTestApp(LIMIT);
    expect(await statuses(5, (i) => t!.app.inject({ method: 'GET', url: i % 2 ? '/api/boards' : '/api/no/such/thing' }))).toEqual([404, 401, 404, 401, 404]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.any(String) });
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'x@example.com', password: 'whatever-long' } })).statusCode).toBe(429);
    for (const url of ['/healthz', '/readyz', '/api/docs/openapi.json', '/v1/docs/openapi.json', '/api/docs/']) {
      expect(await statuses(8, () => t!.app.inject({ method: 'GET', url })), url).toEqual(Array(8).fill(200));
    }
  });

  it('counts unknown and malformed tokens per address before authentication: random tokens get no fresh budget', async () => {
    t = await buildTestApp(LIMIT);
    const sent = await statuses(8, (i) =>
      t!.app.inject({ method: 'GET', url: '/api/boards', headers: { authorization: i % 2 ? `Bearer ${randomToken('tsk_')}` : `Bearer nonsense-${i}` } }),
    );
    // Had authentication run first, every one of them would be a 401.
    expect(sent).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The same address's answer-API calls share that budget, in the /v1 error shape.
    const v1 = await t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': randomToken('ans_') }, payload: { message: 'hi' } });
    expect(v1.statusCode).toBe(429);
    expect(v1.json()).toEqual({ error: 'rate_limited', message: expect.stringMatching(/too many requests/) });
    expect(v1.headers['retry-after']).toMatch(/^\d+$/);
    const tickets = await t.app.inject({ method: 'GET', url: '/v1/tickets', headers: { authorization: `Bearer ${randomToken('wst_')}` } });
    expect(tickets.statusCode).toBe(429);
    expect(tickets.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('gives a good key or session its own budget from its first request, even once others spent the address\'s', async () => {
    t = await buildTestApp(LIMIT);
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const key = await makeKey(t.db, user.id);
    const revoked = await makeKey(t.db, user.id);
    await t.db.prisma.apiKey.update({ where: { id: revoked.key.id }, data: { revokedAt: new Date() } });
    // Anonymous requests from the same address spend its budget.
    expect(await statuses(6, () => t!.app.inject({ method: 'GET', url: '/api/boards' }))).toEqual([401, 401, 401, 401, 401, 429]);

    // The key's first request here is not counted against the spent address (it used to be, and,
    // never authenticated, stayed there: 429 after 429 for a key calling once a second).
    const get = (headers: Record<string, string>) => t!.app.inject({ method: 'GET', url: '/api/boards', headers });
    expect(await statuses(5, () => get(key.auth))).toEqual([200, 200, 200, 200, 200]);
    expect((await get(key.auth)).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: session })).statusCode).toBe(200);

    // Unknown, revoked and malformed credentials stay on the address's budget.
    for (const authorization of [`Bearer ${generateToken('tsk_')}`, `Bearer ${revoked.token}`, 'Bearer nonsense']) {
      expect((await get({ authorization })).statusCode, authorization).toBe(429);
    }
    expect((await get({ cookie: `tb_session=${randomToken('')}` })).statusCode).toBe(429);
  });

  it('gives a good answer key and workspace token their own budgets from their first request too, even once others spent the address\'s', async () => {
    t = await buildTestApp(LIMIT);
    const w = await answerWorkspace(t);
    const out = await runCommand(['workspace', 'token', '--workspace', String(w.workspaceId)], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    const wst = out.body.token as string;
    expect(await statuses(6, () => t!.app.inject({ method: 'GET', url: '/v1/tickets' }))).toEqual([401, 401, 401, 401, 401, 429]);
    const ask = () => t!.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token }, payload: { message: 'How do I reset my password?' } });
    expect(await statuses(5, ask)).toEqual([200, 200, 200, 200, 200]);
    const tickets = () => t!.app.inject({ method: 'GET', url: '/v1/tickets', headers: { authorization: `Bearer ${wst}` } });
    expect(await statuses(5, tickets)).toEqual([200, 200, 200, 200, 200]);
    expect((await tickets()).statusCode).toBe(429);
    // Unknown ones of each kind stay on the spent address.
    expect((await t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': generateToken('ans_') }, payload: { message: 'x' } })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/v1/tickets', headers: { authorization: `Bearer ${generateToken('wst_')}` } })).statusCode).toBe(429);
  });

  it('limits an answer key on its own budget in the /v1 shape', async () => {
    t = await buildTestApp(LIMIT);
    const w = await answerWorkspace(t);
    const ask = () => t!.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token }, payload: { message: 'How do I reset my password?' } });
    expect(await statuses(5, ask)).toEqual([200, 200, 200, 200, 200]); // all 5 on the key's budget, the first one too
    const limited = await ask();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
  });

  it('gives a session user one budget across their sessions, in the web backend\'s {error} shape', async () => {
    t = await buildTestApp({ ...LIMIT, RATE_LIMIT_MAX: '8' });
    const user = await makeUser(t.db);
    // Every request of either session counts against the user, the first one too.
    const one = await loginCookie(t.app, user.email, user.password);
    const two = await loginCookie(t.app, user.email, user.password);
    const me = (cookie: { cookie: string }) => t!.app.inject({ method: 'GET', url: '/auth/me', headers: cookie });
    expect(await statuses(8, (i) => me(i % 2 ? one : two))).toEqual(Array(8).fill(200));
    const limited = await me(one);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.stringMatching(/too many requests/) });
    expect((await me(two)).statusCode).toBe(429);
  });

  it('counts an event stream once, when it opens', async () => {
    t = await buildTestApp(LIMIT, { streamIntervals: { ping: 50, accessCheck: 50 } });
    const user = await makeUser(t.db);
    const key = await makeKey(t.db, user.id);
    const board = await makeBoard(t.db, user.id);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const get = () => fetch(`${base}/api/boards`, { headers: key.auth });
    expect((await get()).status).toBe(200);
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, key.auth);
    expect(stream.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // pings and access checks: none of them count
    expect(await Promise.all([get(), get(), get()]).then((rs) => rs.map((r) => r.status))).toEqual([200, 200, 200]);
    expect((await get()).status).toBe(429);
    expect(stream.comments.length).toBeGreaterThan(0); // still open and pinged
    stream.close();
  });

  it('shares each budget between processes on one database', async () => {
    t = await buildTestApp(LIMIT);
    const other = await buildApp({ events: new EventBus(), config: t.config, db: t.db, webhookDispatcher: false, logStream: t.logs });
    try {
      const user = await makeUser(t.db);
      const key = await makeKey(t.db, user.id);
      const get = (app: typeof other) => app.inject({ method: 'GET', url: '/api/boards', headers: key.auth });
      const sent = await statuses(6, (i) => get(i % 2 ? other : t!.app));
      expect(sent).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await get(other)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('counts taken in memory below half a budget', () => {
  it('still add up exactly across two processes, including counts flushed in the background', async () => {
    t = await buildTestApp({ RATE_LIMIT_MAX: '40', RATE_LIMIT_WINDOW_MS: '60000' });
    const other = await buildApp({ events: new EventBus(), config: t.config, db: t.db, webhookDispatcher: false, logStream: t.logs });
    try {
      const user = await makeUser(t.db);
      const key = await makeKey(t.db, user.id);
      const get = (app: typeof other) => app.inject({ method: 'GET', url: '/api/boards', headers: key.auth });
      const sent = await statuses(60, async (i) => {
        if (i % 7 === 0) await new Promise((r) => setTimeout(r, 60)); // let background flushes happen too
        return get(i % 3 ? other : t!.app);
      });
      expect(sent.filter((s) => s === 200)).toHaveLength(40);
      expect(sent.slice(40)).toEqual(Array(20).fill(429));
      const [row] = await t.db.prisma.$queryRaw<{ count: number }[]>`SELECT count FROM "RateLimitBucket" WHERE key LIKE 'k:%'`;
      expect(row!.count).toBeGreaterThan(40);
    } finally {
      await other.close();
    }
  });
});

describe('RateLimit-Remaining while a background flush is under way', () => {
  it('never goes back up: counts sent to a slow shared counter still count until it answers', async () => {
    // A shared counter that answers 120 ms late, as a loaded database does: the flush that
    // happens meanwhile used to forget its counts until then (seen on PostgreSQL in CI).
    const counts = new Map<string, number>();
    const slow = {
      kind: 'database' as const,
      async incr(key: string, windowMs: number, by = 1) {
        const current = (counts.get(key) ?? 0) + by;
        counts.set(key, current);
        await new Promise((r) => setTimeout(r, 120));
        return { current, ttl: windowMs };
      },
      async close() {},
    };
    const Store = storeOver(slow, { windowMs: 60_000, max: 100 });
    const store = new Store({} as never);
    const incr = () => new Promise<number>((resolve, reject) => store.incr('k', (e, c) => (e ? reject(e) : resolve(c!.current)), 60_000, 100));
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      seen.push(await incr());
      await new Promise((r) => setTimeout(r, 20)); // flushes start every 50 ms and take 120 ms
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});

describe('rate limits on Redis (REDIS_URL)', async () => {
  const redisUp = await redisAnswers();
  it.skipIf(!redisUp)('shares one budget between processes through Redis', async () => {
    t = await buildTestApp({ ...LIMIT, REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: 'true' });
    const other = await buildApp({ events: new EventBus(), config: t.config, db: t.db, webhookDispatcher: false, logStream: t.logs });
    try {
      // A fresh address of its own: the Redis server outlives this test and is shared.
      const address = `10.${randomBytes(3).join('.')}`;
      const get = (app: typeof other) => app.inject({ method: 'GET', url: '/api/boards', headers: { 'x-forwarded-for': address } });
      const sent = await statuses(7, (i) => get(i % 2 ? other : t!.app));
      expect(sent).toEqual([401, 401, 401, 401, 401, 429, 429]);
      const limited = await get(other);
      expect(limited.json()).toEqual({ error: expect.stringMatching(/too many requests/) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});


describe('the OpenAPI documents', () => {
  it('declare 429 and 503 on every operation', async () => {
    t = await buildTestApp();
    for (const url of ['/api/docs/openapi.json', '/v1/docs/openapi.json']) {
      const doc = (await t.app.inject({ method: 'GET', url })).json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (typeof op !== 'object' || !op.responses) continue;
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['429', '503']));
        }
      }
    }
  });
});
