import { changeBoard } from '../activity/change-board.js';
import { requireList } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { shiftLists } from '../shift-positions.js';
import { lockBoards } from '../lock-boards.js';
import { RETRY, withRetry } from '../retry.js';

/**
 * Deletes a list with every card on it, archived ones included (board admins only), closing its
 * gap among the open lists. Answers how many cards went with it; their files are purged after the
 * commit (the 'file.deleted' effect, as for a card).
 */
export async function deleteList(ctx: BoardContext & { listId: number }) {
  const deleted = await withRetry(async () => {
    const { list, role } = await requireList(ctx.db, ctx.actor, ctx.listId);
    authorize(ctx.actor, 'list.delete', role);
    return changeBoard(ctx, async (tx, record) => {
      await lockBoards(tx, [list.boardId]);
      const current = await tx.list.findUniqueOrThrow({ where: { id: list.id } });
      if (current.boardId !== list.boardId) return RETRY; // moved to another board meanwhile
      if (!current.archived) await shiftLists(tx, current.boardId, current.position, null);
      const cards = await tx.card.count({ where: { listId: current.id } });
      await tx.list.delete({ where: { id: current.id } });
      await record({ boardId: current.boardId, type: 'list.deleted', data: { listId: current.id, cards } });
      return { cards };
    });
  });
  ctx.effects.committed({ kind: 'file.deleted' }); // the cards' files, after the commit
  return deleted;
}
