import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';

/** The boards' metrics (platform/http/metrics.ts MetricsSource): open event streams and the board cache. */
export function boardMetrics(register: Registry, app: FastifyInstance) {
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
}
