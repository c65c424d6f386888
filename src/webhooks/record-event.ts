import { publicId } from '../accounts/credentials/tokens.js';
import { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from '../platform/db.js';
import type { WebhookEventType } from './event-types.js';

/** An event to announce: a workspace's (tickets) or a board's (its activity, src/boards/activity/change-board.ts). */
export type WebhookEventInput = ({ workspaceId: number; type: WebhookEventType } | { boardId: number; type: string }) & { data: object; at?: Date };

/**
 * Puts an event in the outbox: called inside the transaction of the change it announces, so the
 * event exists exactly when the change does. One delivery per enabled endpoint of the workspace
 * or board (or paused) subscribed to the type; the dispatcher sends them after the commit. A
 * board webhook gets the event only while its creator can read the board: an active account that
 * is still a member (checked here, in the change's transaction, so a removal committed before the
 * change is always seen). Returns how many deliveries it wrote.
 */
export async function recordWebhookEvent(tx: DbClient, input: WebhookEventInput): Promise<number> {
  const { type, data, at = new Date() } = input;
  const id = publicId('msg_', 24);
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
  const workspaceId = 'workspaceId' in input ? input.workspaceId : null;
  const boardId = 'boardId' in input ? input.boardId : null;
  const owned = workspaceId !== null
    ? Prisma.sql`e."workspaceId" = ${workspaceId}`
    : Prisma.sql`e."boardId" = ${boardId} AND EXISTS (
        SELECT 1 FROM "BoardMember" m JOIN "User" u ON u.id = m."userId"
        WHERE m."boardId" = e."boardId" AND m."userId" = e."userId" AND u.status = 'active')`;
  // One statement: the event only when some endpoint wants it, and its deliveries. A paused
  // endpoint (disabled by a person) gets its deliveries, which wait; one disabled for answering
  // 410 or failing for too long gets none.
  const rows = await tx.$queryRaw<{ deliveries: number }[]>`
    WITH targets AS (
      SELECT e.id FROM "WebhookEndpoint" e
      WHERE ${owned} AND (e.enabled OR e."disabledReason" = 'manual') AND (cardinality(e.events) = 0 OR ${type} = ANY(e.events))
    ), event AS (
      INSERT INTO "WebhookEvent" (id, "workspaceId", "boardId", type, body, "createdAt")
      SELECT ${id}, ${workspaceId}::int, ${boardId}::int, ${type}, ${body}, ${at} WHERE EXISTS (SELECT 1 FROM targets)
      RETURNING id
    ), deliveries AS (
      INSERT INTO "WebhookDelivery" ("eventId", "endpointId", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT event.id, targets.id, ${at}, ${at}, ${at} FROM event, targets
      RETURNING 1
    )
    SELECT count(*)::int AS deliveries FROM deliveries`;
  return rows[0]?.deliveries ?? 0;
}
