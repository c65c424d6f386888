import { presentActivity } from '../activity/present-activity.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';

/** A page of the board's activity, newest first, older than `before` when given. */
export async function listActivity({ db, actor, boardId, limit, before }: { db: DbClient; actor: Actor; boardId: number; limit: number; before?: number | undefined }) {
  await requireRole(db, actor, boardId);
  const rows = await db.activity.findMany({
    where: { boardId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  // A renamed person reads as one person: the feed shows each actor's current name. A deleted
  // user keeps the name the row was written with.
  const actorIds = [...new Set(page.map((r) => r.actorUserId).filter((id): id is number => id !== null))];
  const users = actorIds.length ? await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true } }) : [];
  const current = new Map(users.map((u) => [u.id, u.name]));
  const named = page.map((r) => ({ ...r, actorName: (r.actorUserId !== null && current.get(r.actorUserId)) || r.actorName }));
  return { activities: named.map(presentActivity), nextBefore: rows.length > limit ? page.at(-1)!.id : null };
}
