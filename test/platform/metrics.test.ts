import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, useTestApp } from '../helper.js';
import { SseClient } from '../sse-client.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';
import { eventually, webhookWorkspace } from '../webhooks/webhook-fixtures.js';

const TOKEN = 'metrics-token-0123456789';

/** One sample's value from Prometheus text, by name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (want.every(([k, v]) => have[k] === v) && Object.keys(have).length === want.length) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver((_req, i) => ({ status: i === 0 ? 500 : 200 }));
  });
  afterAll(() => receiver.close());
  // Built after the receiver and closed before it (after-hooks run in reverse order).
  const t = useTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '50ms' });
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('answers only to the metrics token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: expect.any(String) });
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const user = await makeUser(t.db);
    const key = await makeKey(t.db, user.id);
    const board = await makeBoard(t.db, user.id);
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: key.auth });
    await t.app.inject({ method: 'GET', url: '/api/boards' });
    await t.app.inject({ method: 'GET', url: '/nowhere' });
    const text = await scrape();
    expect(sample(text, 'taskboard_http_request_duration_seconds_count', { method: 'GET', route: '/api/boards/:id', status: '200' })).toBe(3);
    expect(sample(text, 'taskboard_http_request_duration_seconds_count', { method: 'GET', route: '/api/boards', status: '401' })).toBe(1);
    expect(sample(text, 'taskboard_http_request_duration_seconds_count', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    expect(sample(text, 'taskboard_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/boards/:id', status: '200', le: '+Inf' })).toBe(3);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    // The board cache: one read, then memory (on PostgreSQL, once the listener is up).
    const fetches = (result: string) => sample(text, 'taskboard_board_fetches_total', { result }) ?? 0;
    expect(fetches('hit') + fetches('read') + fetches('shared')).toBe(3);
    if (t.db.kind === 'embedded') {
      expect([fetches('read'), fetches('hit')]).toEqual([1, 2]);
      expect(sample(text, 'taskboard_board_cache_bytes')).toBeGreaterThan(0);
    }
    if (t.db.kind === 'postgres') {
      expect(sample(text, 'taskboard_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'taskboard_db_pool_waiting')).toBe(0);
    }
  });

  it('shows open event streams', async () => {
    const user = await makeUser(t.db);
    const key = await makeKey(t.db, user.id);
    const board = await makeBoard(t.db, user.id);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect(sample(await scrape(), 'taskboard_event_streams_open')).toBe(0);
    const streams = await Promise.all([SseClient.open(`${base}/api/boards/${board.id}/events`, key.auth), SseClient.open(`${base}/api/boards/${board.id}/events`, key.auth)]);
    expect(sample(await scrape(), 'taskboard_event_streams_open')).toBe(2);
    for (const s of streams) s.close();
    await eventually(async () => expect(sample(await scrape(), 'taskboard_event_streams_open')).toBe(0));
  });

  it('shows answer latency by needs_human', async () => {
    const w = await webhookWorkspace(t, receiver.url);
    const ask = (message: string) => t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token }, payload: { message } });
    expect((await ask('How do I reset my password?')).json().needs_human).toBe(false);
    expect((await ask('Can I talk to a human please?')).json().needs_human).toBe(true);
    const text = await scrape();
    const count = (needsHuman: string) =>
      [...text.matchAll(new RegExp(`^taskboard_answer_duration_seconds_count\\{needs_human="${needsHuman}",confidence="\\w+"\\} (\\d+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    expect(count('false')).toBe(1);
    expect(count('true')).toBe(1);

    // Webhooks: the queue's depth and each attempt's outcome (the receiver fails the first one).
    await w.createTicket();
    await eventually(async () => {
      const after = await scrape();
      expect(sample(after, 'taskboard_webhook_attempts_total', { result: 'failed' })).toBe(1);
      expect(sample(after, 'taskboard_webhook_attempts_total', { result: 'succeeded' })).toBe(1);
      expect(sample(after, 'taskboard_webhook_deliveries_finished_total', { status: 'succeeded' })).toBe(1);
    });
  });
});

describe('the webhook queue depth', () => {
  it('counts pending deliveries (of every process)', async () => {
    // No dispatcher here: deliveries stay pending, as when receivers are down.
    const t = await buildTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhookDispatcher: false });
    try {
      const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hooks');
      await w.createTicket('one');
      await w.createTicket('two');
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(sample(res.body, 'taskboard_webhook_deliveries_pending')).toBe(2);
    } finally {
      await t.close();
    }
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics route', async () => {
    const t = await buildTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
