import { requireChecklist } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { shiftChecklists } from '../shift-positions.js';
import { checklistOf } from './find-checklist-parts.js';

/** Deletes a checklist with its items; the card's other checklists close up. */
export async function deleteChecklist(ctx: BoardContext & { checklistId: number }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.id, card.id);
    await tx.checklist.delete({ where: { id: checklist.id } });
    await shiftChecklists(tx, card.id, checklist.position, null);
    return { activity: { type: 'checklist.deleted', data: { checklistId: checklist.id } }, result: null };
  });
}
