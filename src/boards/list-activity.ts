import { presentActivity } from './activity/present-activity.js';
import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { requireRole } from './access.js';

/** A page of the board's activity, newest first, older than `before` when given. */
export async function listActivity({ db, actor, boardId, limit, before }: { db: DbClient; actor: Actor; boardId: number; limit: number; before?: number | undefined }) {
  await requireRole(db, actor, boardId);
  const rows = await db.activity.findMany({
    where: { boardId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { activities: page.map(presentActivity), nextBefore: rows.length > limit ? page.at(-1)!.id : null };
}
