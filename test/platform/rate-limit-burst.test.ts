import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildTestApp, type TestApp } from '../helper.js';
import { redisAnswers } from '../net.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

/**
 * Concurrent bursts against one budget. Counts taken in memory used to be checked against a
 * shared count that the exact path had already taken them out of, so a burst overshot the
 * budget in a single process (23–28 of 30 admitted with a budget of 20).
 */
const MAX = 20;
const REDIS_URL = 'redis://127.0.0.1:6379';
const redisUp = await redisAnswers();

let t: TestApp | undefined;
let others: FastifyInstance[] = [];
afterEach(async () => {
  for (const other of others) await other.close();
  others = [];
  await t?.close();
  t = undefined;
});

/** A fresh address of its own, so budgets in a Redis server that outlives the test never collide. */
const freshAddress = () => `10.${randomBytes(3).join('.')}`;

/** Sends `n` requests at once from `address`; returns how many were admitted (not 429). */
async function burst(app: FastifyInstance, address: string, n: number) {
  const sent = await Promise.all(
    Array.from({ length: n }, () => app.inject({ method: 'GET', url: '/api/boards', headers: { 'x-forwarded-for': address } })),
  );
  const statuses = sent.map((r) => r.statusCode);
  expect(statuses.every((s) => s === 401 || s === 429), statuses.join(',')).toBe(true);
  return statuses.filter((s) => s !== 429).length;
}

const stores: { name: string; env: Record<string, string> }[] = [
  { name: process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'the embedded database', env: {} },
  ...(redisUp ? [{ name: 'Redis', env: { REDIS_URL } }] : []),
];

describe.each(stores)('a burst on $name', ({ env }) => {
  const config = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_MS: '60000', TRUST_PROXY: 'true', ...env };

  it(`admits at most the budget in one process (${MAX} of 30 at once), also once the budget is known to the process`, async () => {
    t = await buildTestApp(config);
    // A fresh key: every request waits for the shared count.
    expect(await burst(t.app, freshAddress(), 30)).toBe(MAX);
    // A key this process has read recently and counts in memory below half its budget.
    const address = freshAddress();
    expect(await burst(t.app, address, 1)).toBe(1);
    expect(await burst(t.app, address, 30)).toBe(MAX - 1);
    expect(await burst(t.app, address, 5)).toBe(0);
  });

  it(`admits at most ${MAX} + ${MAX / 2} across two processes sharing the counters, and at most ${MAX} in each`, async () => {
    t = await buildTestApp(config);
    const other = await buildApp({ events: new EventBus(), config: t.config, db: t.db, webhookDispatcher: false, logStream: t.logs });
    others.push(other);
    const address = freshAddress();
    // Each process has read the shared count once: both may count in memory from here.
    expect(await burst(t.app, address, 1)).toBe(1);
    expect(await burst(other, address, 1)).toBe(1);
    const [a, b] = await Promise.all([burst(t.app, address, 40), burst(other, address, 40)]);
    expect(2 + a).toBeLessThanOrEqual(MAX);
    expect(2 + b).toBeLessThanOrEqual(MAX);
    expect(2 + a + b).toBeLessThanOrEqual(MAX + MAX / 2);
    // The shared count holds every request either process counted (the refused ones too).
    expect(await burst(t.app, address, 3)).toBe(0);
    expect(await burst(other, address, 3)).toBe(0);
  });
});

