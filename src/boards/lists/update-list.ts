import { changeBoard } from '../activity/change-board.js';
import { requireList } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { shiftLists } from '../shift-positions.js';
import { listSlot } from '../target-position.js';
import { lockBoards } from '../lock-boards.js';
import { presentList } from '../presenters.js';
import { RETRY, withRetry } from '../retry.js';

/** Renames a list, or archives / restores it (restored at the end). */
export async function updateList(ctx: BoardContext & { listId: number; name?: string | undefined; archived?: boolean | undefined }) {
  return withRetry(async () => {
    const { list, role } = await requireList(ctx.db, ctx.actor, ctx.listId);
    authorize(ctx.actor, 'list.write', role);
    return changeBoard(ctx, async (tx, record) => {
      await lockBoards(tx, [list.boardId]);
      const current = await tx.list.findUniqueOrThrow({ where: { id: list.id } });
      if (current.boardId !== list.boardId) return RETRY; // moved to another board meanwhile
      let position = current.position;
      if (ctx.archived === true && !current.archived) await shiftLists(tx, current.boardId, current.position, null);
      if (ctx.archived === false && current.archived) position = await listSlot(tx, current.boardId);
      const updated = await tx.list.update({ where: { id: list.id }, data: { name: ctx.name, archived: ctx.archived, position } });
      const archivedNow = ctx.archived === true && !current.archived;
      await record({
        boardId: updated.boardId,
        type: archivedNow ? 'list.archived' : 'list.updated',
        data: { listId: updated.id, list: presentList(updated) },
      });
      return updated;
    });
  });
}
