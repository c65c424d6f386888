import { requireChecklist } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { presentChecklist } from '../presenters.js';
import { checklistOf, withItems } from './find-checklist-parts.js';

/** Renames a checklist. */
export async function renameChecklist(ctx: BoardContext & { checklistId: number; name: string }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    await checklistOf(tx, row.id, card.id);
    const checklist = presentChecklist(await tx.checklist.update({ where: { id: row.id }, data: { name: ctx.name }, include: withItems }));
    return { activity: { type: 'checklist.updated', data: { checklistId: checklist.id, checklist } }, result: checklist };
  });
  return result;
}
