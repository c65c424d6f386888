import type { Effects } from '../platform/after-commit.js';
import type { PrismaClient, Tx } from '../platform/db.js';
import { recordWebhookEvent, type WebhookEventInput } from './record-event.js';

/**
 * This process's webhook dispatcher, as the after-commit owner sees it: its 'webhookWake' runner
 * (app.ts) wakes it after a commit that left deliveries due ('webhook.queued': new events,
 * redeliveries), so it sends them at once rather than at its next poll. Other processes'
 * dispatchers find them at their next poll (WEBHOOK_POLL_MS). Changes never wake it themselves.
 */
export interface Outbox {
  wake(): void;
}

/** Puts one event in the outbox, in the change's transaction; how many deliveries it made. */
export type RecordWebhookEvent = (event: WebhookEventInput) => Promise<number>;

/**
 * Runs a change that announces webhook events: `record` writes each one in the change's own
 * transaction (the event exists exactly when the change does), and 'webhook.queued' is reported
 * after the commit when any delivery was written (platform/after-commit.ts wakes the dispatcher).
 */
export async function changeWithOutbox<T>(
  options: { db: PrismaClient; effects: Effects; transaction?: { timeout: number; maxWait: number } },
  fn: (tx: Tx, record: RecordWebhookEvent) => Promise<T>,
): Promise<T> {
  let deliveries = 0;
  const result = await options.db.$transaction(
    async (tx) =>
      fn(tx, async (event) => {
        const made = await recordWebhookEvent(tx, event);
        deliveries += made;
        return made;
      }),
    options.transaction,
  );
  if (deliveries > 0) options.effects.committed({ kind: 'webhook.queued' });
  return result;
}
