import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';

/** Deletes a board and everything on it (board admins only); `board.deleted` reaches its streams. */
export async function deleteBoard(ctx: BoardContext & { boardId: number }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'board.delete', role);
  await changeBoard(ctx, async (tx, record) => {
    await tx.board.delete({ where: { id: ctx.boardId } });
    await record({ boardId: ctx.boardId, type: 'board.deleted', data: { boardId: ctx.boardId } });
  });
  ctx.effects.committed({ kind: 'file.deleted' }); // the board's files, after the commit
}
