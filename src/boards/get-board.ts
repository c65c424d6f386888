import type { Actor } from '../platform/auth.js';
import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import { boardsVisibleTo } from './access.js';
import { authorize } from './policy.js';

/** The board with its members and the actor's role; 404 when out of the actor's reach. */
export async function getBoard({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const board = await db.board.findFirst({
    where: boardsVisibleTo(actor, { id: boardId }),
    include: { members: { include: { user: { select: { name: true, email: true } } }, orderBy: { createdAt: 'asc' } } },
  });
  if (!board) throw notFound('board: not found');
  const role = board.members.find((m) => m.userId === actor.userId)!.role;
  authorize(actor, 'board.read', role);
  return { board, role };
}
