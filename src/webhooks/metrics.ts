import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';

/** Published by the webhook dispatcher after each attempt: `{ db, succeeded, status }`. */
export const WEBHOOK_ATTEMPT_CHANNEL = 'taskboard:webhook-attempt';

interface AttemptMessage {
  db: unknown;
  succeeded: boolean;
  /** The delivery's status after the attempt: pending (a retry is scheduled), succeeded or failed. */
  status: string;
}

/** How long the pending-deliveries count is reused before it is counted again. */
const QUEUE_DEPTH_TTL_MS = 5000;

/** The webhooks' metrics (platform/http/metrics.ts MetricsSource): queue depth and attempt outcomes. */
export function webhookMetrics(register: Registry, app: FastifyInstance) {
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
}
