import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentBoard } from '../presenters.js';

export interface BoardChanges {
  name?: string | undefined;
  description?: string | undefined;
  color?: string | undefined;
  archived?: boolean | undefined;
}

/** Renames, describes, colours or (un)archives a board: board admins only. */
export async function updateBoard(ctx: BoardContext & { boardId: number; changes: BoardChanges }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'board.update', role);
  const board = await changeBoard(ctx, async (tx, record) => {
    const board = await tx.board.update({ where: { id: ctx.boardId }, data: ctx.changes });
    await record({ boardId: board.id, type: 'board.updated', data: { boardId: board.id, board: presentBoard(board, role), changes: ctx.changes } });
    return board;
  });
  return { board, role };
}
