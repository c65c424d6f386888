import type { Tx } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';

/**
 * The board must keep an admin: refuses (409) a change that would leave it with none, the member
 * `userId` (being demoted or removed) aside.
 */
export async function keepAnAdmin(tx: Tx, { boardId, userId }: { boardId: number; userId: number }) {
  const admins = await tx.boardMember.count({ where: { boardId, role: 'admin', userId: { not: userId } } });
  if (admins === 0) throw conflict('members: a board keeps at least one admin');
}
