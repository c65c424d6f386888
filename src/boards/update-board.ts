import type { Actor } from '../platform/auth.js';
import type { PrismaClient } from '../platform/db.js';
import { getBoard } from './get-board.js';
import { authorize } from './policy.js';

export interface UpdateBoardOptions {
  db: PrismaClient;
  actor: Actor;
  boardId: number;
  changes: { name?: string | undefined; description?: string | undefined; archived?: boolean | undefined };
}

/** Renames, describes or (un)archives a board: board admins only. */
export async function updateBoard({ db, actor, boardId, changes }: UpdateBoardOptions) {
  const { role } = await getBoard({ db, actor, boardId });
  authorize(actor, 'board.update', role);
  const board = await db.board.update({ where: { id: boardId }, data: changes });
  return { board, role };
}
