import { notFound } from '../../platform/errors.js';
import { requireComment } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';

/** Deletes a comment: its author, or an admin of the board (moderation). */
export async function deleteComment(ctx: BoardContext & { commentId: number }) {
  const { row, role } = await requireComment(ctx.db, ctx.actor, ctx.commentId);
  if (row.authorId !== ctx.actor.userId) authorize(ctx.actor, 'comment.moderate', role);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'comment.create', async (tx, card) => {
    const current = await tx.comment.findUnique({ where: { id: row.id } });
    if (!current || current.cardId !== card.id) throw notFound('comment: not found');
    await tx.comment.delete({ where: { id: current.id } });
    return { activity: { type: 'comment.deleted', data: { commentId: current.id } }, result: null };
  });
}
