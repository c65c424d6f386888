import { requireItem } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { checklistOf } from './checklist-rows.js';
import { itemOf } from './checklist-rows.js';
import { removeItem } from './checklist-rows.js';

/** Deletes an item; the others close up. */
export async function deleteItem(ctx: BoardContext & { itemId: number }) {
  const { row } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.checklistId, card.id);
    const item = await itemOf(tx, row.id, checklist.id);
    await removeItem(tx, item);
    return { activity: { type: 'item.deleted', data: { checklistId: checklist.id, itemId: item.id } }, result: null };
  });
}
