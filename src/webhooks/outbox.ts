import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClient } from '../platform/db.js';
import { recordWebhookEvent, type WebhookEventInput } from './record-event.js';

/**
 * This process's webhook dispatcher, as changes see it: woken after a commit that left
 * deliveries due (new events, redeliveries), so it sends them at once rather than at its next
 * poll. Other processes' dispatchers find them at their next poll (WEBHOOK_POLL_MS). The server's
 * is `app.webhooks`; routes, board changes, connector tools and CLI commands all get that one.
 */
export interface Outbox {
  wake(): void;
}

/** Puts one event in the outbox, in the change's transaction; how many deliveries it made. */
export type RecordWebhookEvent = (event: WebhookEventInput) => Promise<number>;

/**
 * Runs a change that announces webhook events: `record` writes each one in the change's own
 * transaction (the event exists exactly when the change does), and `outbox` is woken after the
 * commit when any delivery was written. The one way a change reaches the dispatcher.
 */
export async function changeWithOutbox<T>(
  options: { db: PrismaClient; outbox?: Outbox | undefined; transaction?: { timeout: number; maxWait: number } },
  fn: (tx: Prisma.TransactionClient, record: RecordWebhookEvent) => Promise<T>,
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
  if (deliveries > 0) options.outbox?.wake();
  return result;
}
