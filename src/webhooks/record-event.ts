import { publicId } from '../accounts/tokens.js';
import type { DbClient } from '../platform/db.js';
import type { WebhookEventType } from './event-types.js';

/**
 * Puts an event in the outbox: called inside the transaction of the change it announces, so the
 * event exists exactly when the change does. One delivery per enabled endpoint of the workspace
 * (or paused) subscribed to the type; the dispatcher sends them after the commit. Returns how many.
 */
export async function recordWebhookEvent(
  tx: DbClient,
  { workspaceId, type, data, at = new Date() }: { workspaceId: number; type: WebhookEventType; data: object; at?: Date },
): Promise<number> {
  const id = publicId('msg_', 24);
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
  // One statement: the event only when some endpoint wants it, and its deliveries. A paused
  // endpoint (disabled by a person) gets its deliveries, which wait; one disabled for answering
  // 410 or failing for too long gets none.
  const rows = await tx.$queryRaw<{ deliveries: number }[]>`
    WITH targets AS (
      SELECT id FROM "WebhookEndpoint"
      WHERE "workspaceId" = ${workspaceId} AND (enabled OR "disabledReason" = 'manual') AND (cardinality(events) = 0 OR ${type} = ANY(events))
    ), event AS (
      INSERT INTO "WebhookEvent" (id, "workspaceId", type, body, "createdAt")
      SELECT ${id}, ${workspaceId}, ${type}, ${body}, ${at} WHERE EXISTS (SELECT 1 FROM targets)
      RETURNING id
    ), deliveries AS (
      INSERT INTO "WebhookDelivery" ("eventId", "endpointId", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT event.id, targets.id, ${at}, ${at}, ${at} FROM event, targets
      RETURNING 1
    )
    SELECT count(*)::int AS deliveries FROM deliveries`;
  return rows[0]?.deliveries ?? 0;
}
