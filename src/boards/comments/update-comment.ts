import { forbidden, notFound } from '../../platform/errors.js';
import { requireComment } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { presentComment } from '../presenters.js';

/** Edits a comment: its author only; the comment.updated activity keeps the text it replaced. */
export async function updateComment(ctx: BoardContext & { commentId: number; text: string }) {
  const { row } = await requireComment(ctx.db, ctx.actor, ctx.commentId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'comment.create', async (tx, card) => {
    const current = await tx.comment.findUnique({ where: { id: row.id } });
    if (!current || current.cardId !== card.id) throw notFound('comment: not found');
    if (current.authorId !== ctx.actor.userId) throw forbidden('comment: only its author may edit it');
    const comment = presentComment(await tx.comment.update({ where: { id: current.id }, data: { text: ctx.text } }));
    // The earlier text stays in the activity log: an edit never erases what was said.
    return { activity: { type: 'comment.updated', data: { commentId: comment.id, comment, previousText: current.text } }, result: comment };
  });
  return result;
}
