import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { endpointWhere } from '../../webhooks/access.js';
import { boardWebhooksVisibleTo } from './access.js';

/** A page of the board's webhooks the actor sees (its own; every one for a board admin), newest first; `before` pages by id. */
export async function listBoardWebhooks({ db, actor, boardId, limit, before }: { db: DbClient; actor: Actor; boardId: number; limit: number; before?: number | undefined }) {
  const scope = await boardWebhooksVisibleTo({ db, actor, boardId });
  const rows = await db.webhookEndpoint.findMany({
    where: { ...endpointWhere(scope), ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { endpoints: page, nextBefore: rows.length > limit ? page.at(-1)!.id : null };
}
