import { requireItem } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { itemSlot } from '../target-position.js';
import { presentItem } from '../presenters.js';
import { shiftItems } from '../shift-positions.js';
import { checklistOf, itemOf } from './find-checklist-parts.js';

/** Renames, checks/unchecks or moves an item within its checklist (position 0..n-1). */
export async function updateItem(
  ctx: BoardContext & { itemId: number; name?: string | undefined; checked?: boolean | undefined; position?: number | undefined },
) {
  const { row } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.checklistId, card.id);
    const current = await itemOf(tx, row.id, checklist.id);
    let position = current.position;
    if (ctx.position !== undefined) {
      // 0..n-1: the item is one of the n, so the end is n-1 (the others' count).
      position = await itemSlot(tx, checklist.id, ctx.position, current.id);
      await shiftItems(tx, checklist.id, current.position, position);
    }
    const item = presentItem(await tx.checklistItem.update({ where: { id: current.id }, data: { name: ctx.name, checked: ctx.checked, position } }));
    return { activity: { type: 'item.updated', data: { checklistId: checklist.id, itemId: item.id, item } }, result: item };
  });
  return result;
}
