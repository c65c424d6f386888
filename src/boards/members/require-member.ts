import type { Tx } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { withUser } from './list-members.js';

/** The member row (with its user, as listMembers reads it), or 404. */
export async function requireMember(tx: Tx, { boardId, userId }: { boardId: number; userId: number }) {
  const member = await tx.boardMember.findUnique({ where: { boardId_userId: { boardId, userId } }, include: withUser });
  if (!member) throw notFound('member: not found');
  return member;
}
