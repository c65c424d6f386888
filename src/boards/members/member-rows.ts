import type { Tx } from '../../platform/db.js';
import { conflict, notFound } from '../../platform/errors.js';

/** What a board shows of a member's user, read with every member row. */
export const withUser = { user: { select: { name: true, email: true, avatarKey: true } } } as const;

/** The board must keep an admin: refuses (409) a change that would leave it with none. */
export async function keepAnAdmin(tx: Tx, boardId: number, userId: number) {
  const admins = await tx.boardMember.count({ where: { boardId, role: 'admin', userId: { not: userId } } });
  if (admins === 0) throw conflict('members: a board keeps at least one admin');
}

/** The member row (with its user), or 404. */
export async function requireMember(tx: Tx, boardId: number, userId: number) {
  const member = await tx.boardMember.findUnique({ where: { boardId_userId: { boardId, userId } }, include: withUser });
  if (!member) throw notFound('member: not found');
  return member;
}
