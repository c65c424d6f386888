import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';

/** What a board shows of a member's user, read with every member row (presentMember's shape). */
export const withUser = { user: { select: { name: true, email: true, avatarKey: true } } } as const;

/** A board's members, in the order they joined. */
export async function listMembers({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  return db.boardMember.findMany({ where: { boardId }, include: withUser, orderBy: { createdAt: 'asc' } });
}
