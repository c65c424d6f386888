import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { shiftLists } from '../shift-positions.js';
import { lockBoards } from '../lock-boards.js';
import { listSlot } from '../target-position.js';
import { presentList } from '../presenters.js';

/** A new list at `position` (default: the end). */
export async function createList(ctx: BoardContext & { boardId: number; name: string; position?: number | undefined }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'list.write', role);
  return changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const position = await listSlot(tx, ctx.boardId, ctx.position);
    await shiftLists(tx, ctx.boardId, null, position);
    const list = await tx.list.create({ data: { boardId: ctx.boardId, name: ctx.name, position } });
    await record({ boardId: ctx.boardId, type: 'list.created', data: { listId: list.id, list: presentList(list) } });
    return list;
  });
}
