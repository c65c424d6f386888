import { requireChecklist } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { presentItem } from '../presenters.js';
import { itemSlot } from '../target-position.js';
import { checklistOf } from './find-checklist-parts.js';

/** A new item at the end of the checklist. */
export async function createItem(ctx: BoardContext & { checklistId: number; name: string; checked?: boolean | undefined }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.id, card.id);
    const position = await itemSlot(tx, checklist.id);
    const item = presentItem(await tx.checklistItem.create({ data: { checklistId: checklist.id, name: ctx.name, checked: ctx.checked ?? false, position } }));
    return { activity: { type: 'item.created', data: { checklistId: checklist.id, itemId: item.id, item } }, result: item };
  });
  return result;
}
