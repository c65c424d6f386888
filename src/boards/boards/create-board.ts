import { changeBoard } from '../activity/change-board.js';
import type { BoardContext } from '../context.js';
import { authorizeCreateBoard } from '../policy.js';
import { presentBoard } from '../presenters.js';

/** A new board whose creator is its admin. */
export async function createBoard(ctx: BoardContext & { name: string; description?: string | undefined; color?: string | undefined }) {
  authorizeCreateBoard(ctx.actor);
  return changeBoard(ctx, async (tx, record) => {
    const board = await tx.board.create({
      data: { name: ctx.name, description: ctx.description ?? '', ...(ctx.color ? { color: ctx.color } : {}), members: { create: { userId: ctx.actor.userId, role: 'admin' } } },
    });
    await record({ boardId: board.id, type: 'board.created', data: { boardId: board.id, board: presentBoard(board, 'admin') } });
    return board;
  });
}
