import { changeBoard } from '../activity/change-board.js';
import { badRequest } from '../../platform/errors.js';
import { requireList, requireRole } from '../access.js';
import { dropOtherBoardsParts } from '../drop-other-boards-parts.js';
import type { BoardContext } from '../context.js';
import { authorize, authorizeCrossBoard } from '../policy.js';
import { shiftLists } from '../shift-positions.js';
import { lockBoards } from '../lock-boards.js';
import { listSlot } from '../target-position.js';
import { presentList } from '../presenters.js';
import { RETRY, withRetry } from '../retry.js';

/**
 * Moves a list to `position` on its board or on another board the actor may write to (its cards
 * go with it, their versions bumped). Positions on both boards stay 0..n-1.
 */
export async function moveList(ctx: BoardContext & { listId: number; position: number; boardId?: number | undefined }) {
  return withRetry(async () => {
    const { list, role } = await requireList(ctx.db, ctx.actor, ctx.listId);
    const toBoardId = ctx.boardId ?? list.boardId;
    const targetRole = toBoardId === list.boardId ? role : await requireRole(ctx.db, ctx.actor, toBoardId);
    authorize(ctx.actor, 'list.write', role);
    await authorizeCrossBoard(ctx.db, ctx.actor, list.boardId, toBoardId);
    authorize(ctx.actor, 'list.write', targetRole);
    return changeBoard(ctx, async (tx, record) => {
      await lockBoards(tx, [list.boardId, toBoardId]);
      const current = await tx.list.findUniqueOrThrow({ where: { id: list.id } });
      if (current.boardId !== list.boardId) return RETRY; // moved to another board meanwhile
      if (current.archived) throw badRequest('list: is archived; restore it before moving it');
      const fromBoardId = current.boardId;
      const position = await listSlot(tx, toBoardId, ctx.position, current.id);
      if (fromBoardId === toBoardId) {
        await shiftLists(tx, toBoardId, current.position, position);
      } else {
        await shiftLists(tx, fromBoardId, current.position, null);
        await shiftLists(tx, toBoardId, null, position);
        await tx.card.updateMany({ where: { listId: current.id }, data: { boardId: toBoardId, version: { increment: 1 } } });
        const cards = await tx.card.findMany({ where: { listId: current.id }, select: { id: true } });
        await dropOtherBoardsParts(tx, cards.map((c) => c.id), toBoardId);
      }
      const moved = await tx.list.update({ where: { id: current.id }, data: { boardId: toBoardId, position } });
      const data = {
        listId: moved.id,
        list: presentList(moved),
        from: { boardId: fromBoardId, position: current.position },
        to: { boardId: toBoardId, position },
      };
      await record({ boardId: fromBoardId, type: 'list.moved', data });
      if (fromBoardId !== toBoardId) await record({ boardId: toBoardId, type: 'list.moved', data });
      return moved;
    });
  });
}
