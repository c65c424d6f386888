import { requireItem } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { shiftItems } from '../shift-positions.js';
import { checklistOf, itemOf } from './find-checklist-parts.js';

/** Deletes an item; the others close up. */
export async function deleteItem(ctx: BoardContext & { itemId: number }) {
  const { row } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.checklistId, card.id);
    const item = await itemOf(tx, row.id, checklist.id);
    await tx.checklistItem.delete({ where: { id: item.id } });
    await shiftItems(tx, checklist.id, item.position, null);
    return { activity: { type: 'item.deleted', data: { checklistId: checklist.id, itemId: item.id } }, result: null };
  });
}
