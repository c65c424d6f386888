import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { presentChecklist } from '../presenters.js';
import { checklistSlot } from '../target-position.js';
import { withItems } from './find-checklist-parts.js';

/** A new, empty checklist after the card's others. */
export async function createChecklist(ctx: BoardContext & { cardId: number; name: string }) {
  const { result } = await changeCardParts(ctx, 'checklist.write', async (tx, card) => {
    const position = await checklistSlot(tx, card.id);
    const checklist = presentChecklist(await tx.checklist.create({ data: { cardId: card.id, name: ctx.name, position }, include: withItems }));
    return { activity: { type: 'checklist.created', data: { checklistId: checklist.id, checklist } }, result: checklist };
  });
  return result;
}
