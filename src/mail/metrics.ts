import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { Counter, type Registry } from 'prom-client';

/** Published by the mail worker after each attempt: `{ db, status }` (the mail's status after it: sent, pending, failed). */
export const MAIL_ATTEMPT_CHANNEL = 'taskboard:mail-attempt';

/** The mail's metrics (platform/http/metrics.ts MetricsSource): hand-overs to the SMTP server. */
export function mailMetrics(register: Registry, app: FastifyInstance) {
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
}
