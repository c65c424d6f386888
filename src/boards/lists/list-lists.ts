import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';

/** The board's non-archived lists by position. */
export async function listLists({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  return db.list.findMany({ where: { boardId, archived: false }, orderBy: { position: 'asc' } });
}
