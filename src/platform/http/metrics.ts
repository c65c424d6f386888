import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../../config.js';
import { AppError } from '../errors.js';

/** Latency buckets in seconds, for every duration histogram. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A module's metrics: defines them on the app's registry (collect callbacks, hooks on `app`,
 * diagnostics-channel subscriptions it removes onClose). Called once, only when metrics are on.
 * The ground layer names no module's metric: each module registers its own (app.ts lists them).
 */
export type MetricsSource = (register: Registry, app: FastifyInstance) => void;

/**
 * `GET /metrics` in Prometheus's text format, for `Authorization: Bearer <METRICS_TOKEN>` only
 * (the route does not exist when METRICS_TOKEN is unset). Request rate and latency by route
 * pattern and status, the pg pool and Node's process metrics, then every registered module's
 * (`sources`). Each app has its own registry.
 */
export const metricsPlugin = fp<{ config: Config; sources: MetricsSource[] }>(
  async (app, { config, sources }) => {
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

    // Each module's own metrics, defined where the module is (app.ts lists them).
    for (const source of sources) source(register, app);

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
  { name: 'metrics', dependencies: ['db'] },
);
