import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';
import { withUser } from './member-rows.js';

/** A board's members, in the order they joined. */
export async function listMembers({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  return db.boardMember.findMany({ where: { boardId }, include: withUser, orderBy: { createdAt: 'asc' } });
}
