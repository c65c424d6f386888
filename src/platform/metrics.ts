import { timingSafeEqual } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyReply, FastifyRequest, preSerializationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/** Published by the webhook dispatcher after each attempt: `{ db, succeeded, status }`. */
export const WEBHOOK_ATTEMPT_CHANNEL = 'taskboard:webhook-attempt';

/** Published by the mail worker after each attempt: `{ db, status }` (the mail's status after it: sent, pending, failed). */
export const MAIL_ATTEMPT_CHANNEL = 'taskboard:mail-attempt';

interface AttemptMessage {
  db: unknown;
  succeeded: boolean;
  /** The delivery's status after the attempt: pending (a retry is scheduled), succeeded or failed. */
  status: string;
}

/** How long the pending-deliveries count is reused before it is counted again. */
const QUEUE_DEPTH_TTL_MS = 5000;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `GET /metrics` in Prometheus's text format, for `Authorization: Bearer <METRICS_TOKEN>` only
 * (the route does not exist when METRICS_TOKEN is unset). Request rate and latency by route
 * pattern and status, the pg pool, open event streams, the board cache, webhook queue depth and attempt outcomes,
 * answer latency and needs_human, and Node's process metrics. Each app has its own registry.
 */
export const metricsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const token = config.METRICS_TOKEN;
    if (!token) return;
    const register = new Registry();
    collectDefaultMetrics({ register });

    const requests = new Histogram({
      name: 'taskboard_http_request_duration_seconds',
      help: 'Requests by method, route pattern and status: duration until the response was sent.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [register],
    });
    app.addHook('onResponse', async (request, reply) => {
      requests.observe(
        { method: request.method, route: request.routeOptions.url ?? '(unmatched)', status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });

    const pool = app.db.pool;
    new Gauge({
      name: 'taskboard_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total = open, idle = open and free); absent on the embedded database.',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'taskboard_db_pool_waiting',
      help: 'Queries waiting for a free PostgreSQL pool connection.',
      registers: [register],
      collect() {
        if (pool) this.set(pool.waitingCount);
      },
    });

    new Gauge({
      name: 'taskboard_event_streams_open',
      help: 'Open board event streams (server-sent events) in this process.',
      registers: [register],
      collect() {
        this.set(app.streams.size);
      },
    });

    new Gauge({
      name: 'taskboard_board_cache_bytes',
      help: 'Memory the board cache holds in this process (string lengths; at most BOARD_CACHE_MB).',
      registers: [register],
      collect() {
        this.set(app.boardCache.size.bytes);
      },
    });
    new Counter({
      name: 'taskboard_board_fetches_total',
      help: 'Board fetches in this process by how they were answered: hit (from memory), read (a query), shared (joined a query in flight).',
      labelNames: ['result'] as const,
      registers: [register],
      collect() {
        this.reset();
        for (const [result, n] of Object.entries(app.boardCache.fetches)) this.inc({ result }, n);
      },
    });

    let depth = { value: 0, at: 0 };
    new Gauge({
      name: 'taskboard_webhook_deliveries_pending',
      help: 'Webhook deliveries waiting to be sent or retried (all processes; counted at most every 5 s).',
      registers: [register],
      async collect() {
        if (Date.now() - depth.at > QUEUE_DEPTH_TTL_MS) {
          try {
            const [row] = await app.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE status = 'pending'`;
            depth = { value: row?.n ?? 0, at: Date.now() };
          } catch {
            depth = { value: depth.value, at: Date.now() }; // the database is down: the last count, not a failed scrape
          }
        }
        this.set(depth.value);
      },
    });

    const attempts = new Counter({
      name: 'taskboard_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this process, by result (succeeded: a 2xx; failed: anything else).',
      labelNames: ['result'] as const,
      registers: [register],
    });
    const finished = new Counter({
      name: 'taskboard_webhook_deliveries_finished_total',
      help: 'Webhook deliveries that ended in this process, by final status (failed: retries exhausted or 410).',
      labelNames: ['status'] as const,
      registers: [register],
    });
    for (const result of ['succeeded', 'failed']) attempts.inc({ result }, 0);
    for (const status of ['succeeded', 'failed']) finished.inc({ status }, 0);
    const onAttempt = (message: unknown) => {
      const m = message as AttemptMessage;
      if (m.db !== app.db.prisma) return; // another app in the same process (tests)
      attempts.inc({ result: m.succeeded ? 'succeeded' : 'failed' });
      if (m.status !== 'pending') finished.inc({ status: m.status });
    };
    subscribe(WEBHOOK_ATTEMPT_CHANNEL, onAttempt);
    app.addHook('onClose', async () => {
      unsubscribe(WEBHOOK_ATTEMPT_CHANNEL, onAttempt);
    });

    const mailAttempts = new Counter({
      name: 'taskboard_mail_attempts_total',
      help: 'Mail hand-overs to the SMTP server by this process, by the mail\'s status after it (sent; pending: retried later; failed: refused with 5xx or retries exhausted).',
      labelNames: ['status'] as const,
      registers: [register],
    });
    for (const status of ['sent', 'pending', 'failed']) mailAttempts.inc({ status }, 0);
    const onMailAttempt = (message: unknown) => {
      const m = message as { db: unknown; status: string };
      if (m.db !== app.db.prisma) return; // another app in the same process (tests)
      mailAttempts.inc({ status: m.status });
    };
    subscribe(MAIL_ATTEMPT_CHANNEL, onMailAttempt);
    app.addHook('onClose', async () => {
      unsubscribe(MAIL_ATTEMPT_CHANNEL, onMailAttempt);
    });

    const answers = new Histogram({
      name: 'taskboard_answer_duration_seconds',
      help: 'Successful POST /v1/answer calls by needs_human and confidence: time to the answer.',
      labelNames: ['needs_human', 'confidence'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [register],
    });
    const observeAnswer: preSerializationAsyncHookHandler = async (_request, reply, payload) => {
      const answer = payload as { needs_human?: unknown; confidence?: unknown } | null;
      if (reply.statusCode !== 200 || !answer || typeof answer.needs_human !== 'boolean') return payload;
      answers.observe({ needs_human: String(answer.needs_human), confidence: String(answer.confidence) }, reply.elapsedTime / 1000);
      return payload;
    };
    // Only the answer route carries this hook; every other route pays nothing.
    app.addHook('onRoute', (route) => {
      if (route.url !== '/v1/answer' || route.method !== 'POST') return;
      const existing = route.preSerialization;
      route.preSerialization = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), observeAnswer] as never;
    });

    const expected = Buffer.from(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError(401, 'unauthorized', 'authorization: send "Bearer <METRICS_TOKEN>"', { 'www-authenticate': 'Bearer realm="metrics"' });
      }
      reply.header('content-type', register.contentType);
      return register.metrics();
    });
  },
  { name: 'metrics', dependencies: ['db', 'streams'] },
);
