import { changeBoard } from '../activity/change-board.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { requireCard, requireItem } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { shiftCards, shiftItems } from '../shift-positions.js';
import { lockLists, stillOn } from '../lock-lists.js';
import { lockCard } from '../lock-card.js';
import { fullCard, summaryOf } from '../json/card-json.js';
import { RETRY, withRetry } from '../retry.js';

/**
 * Turns a checklist item into a card placed right after the item's card in its list, and removes
 * the item, in one transaction: the list is locked, then the source card (the lock protocol).
 */
export async function convertItem(ctx: BoardContext & { itemId: number }) {
  return withRetry(async () => {
    const { row: item } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
    const { card, role } = await requireCard(ctx.db, ctx.actor, item.cardId);
    authorize(ctx.actor, 'card.write', role);
    return changeBoard(ctx, async (tx, record) => {
      const list = stillOn(await lockLists(tx, [card.listId]), card.listId, card.boardId);
      if (list === RETRY) return RETRY;
      const source = await lockCard(tx, card);
      if (source === RETRY) return RETRY;
      const current = await tx.checklistItem.findUnique({ where: { id: item.id } });
      if (!current) throw notFound('item: not found');
      if (source.archived || list.archived) throw badRequest('item: its card is archived; restore it before converting items');
      const position = source.position + 1;
      await shiftCards(tx, list.id, null, position);
      const created = await tx.card.create({ data: { boardId: source.boardId, listId: list.id, title: current.name, position } });
      await tx.checklistItem.delete({ where: { id: current.id } });
      await shiftItems(tx, current.checklistId, current.position, null);
      await tx.card.update({ where: { id: source.id }, data: { version: { increment: 1 } } });
      const [full, sourceFull] = [await fullCard(tx, created.id), await fullCard(tx, source.id)];
      await record({ boardId: source.boardId, type: 'card.created', data: { cardId: created.id, listId: list.id, fromItemId: current.id, card: summaryOf(full) } });
      await record({
        boardId: source.boardId,
        type: 'item.converted',
        data: { cardId: source.id, checklistId: current.checklistId, itemId: current.id, newCardId: created.id, card: summaryOf(sourceFull) },
      });
      return full;
    });
  });
}
