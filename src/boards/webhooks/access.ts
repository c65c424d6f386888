import { Prisma } from '../../generated/prisma/client.js';
import { requireOnBoard, requireRole, roleSql } from '../access.js';
import { allows, authorize } from '../policy.js';
import { authorizeWebhook, type WebhookAction } from './policy.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import type { EndpointScope } from '../../webhooks/access.js';

/** A board webhook on a board the actor can reach, with the actor's role there; 404 otherwise (who may do what: authorizeWebhook). */
export const requireWebhook = (db: DbClient, actor: Actor, webhookId: number) =>
  requireOnBoard<{ id: number; boardId: number; userId: number }>(db, actor, 'webhook', Prisma.sql`
    SELECT x.id, x."boardId", x."userId", ${roleSql(actor, Prisma.sql`x."boardId"`)} AS role
    FROM "WebhookEndpoint" x WHERE x.id = ${webhookId} AND x."boardId" IS NOT NULL`);

/**
 * The scope in which the actor may `action` the board webhook `webhookId` (for the shared
 * endpoint functions: update, rotate, deliveries, redeliver, delete); 404 when its board is out
 * of the actor's reach or it is another member's, 403 when a board admin may see it but not do that.
 */
export async function boardWebhookScope({ db, actor, webhookId, action }: { db: DbClient; actor: Actor; webhookId: number; action: WebhookAction }): Promise<EndpointScope> {
  const { row, role } = await requireWebhook(db, actor, webhookId);
  authorizeWebhook(actor, action, role, row.userId);
  return { boardId: row.boardId, userId: row.userId };
}

/** The owner of a webhook the actor subscribes on a board it can read; 404 outside its reach. */
export async function newBoardWebhookOwner({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const role = await requireRole(db, actor, boardId);
  authorize(actor, 'webhook.create', role);
  return { boardId, userId: actor.userId };
}

/** Which of a board's webhooks the actor sees: every one for a board admin, else its own; 404 outside its reach. */
export async function boardWebhooksVisibleTo({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }): Promise<EndpointScope> {
  const role = await requireRole(db, actor, boardId);
  return allows('webhook.moderate', role) ? { boardId } : { boardId, userId: actor.userId };
}
