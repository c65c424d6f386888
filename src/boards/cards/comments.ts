import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { requireCard, requireComment } from '../access.js';
import { changeCardParts } from '../card-change.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentComment } from '../presenters.js';

/** A comment on a card, by the actor; observers may comment too. */
export async function createComment(ctx: BoardContext & { cardId: number; text: string }) {
  const { result } = await changeCardParts(ctx, 'comment.create', async (tx, card) => {
    const comment = presentComment(await tx.comment.create({ data: { cardId: card.id, authorId: ctx.actor.userId, authorName: ctx.actor.name, text: ctx.text } }));
    return { activity: { type: 'comment.created', data: { commentId: comment.id, comment } }, result: comment };
  });
  return result;
}

/** A page of a card's comments, newest first, older than `before` (a comment id). */
export async function listComments({ db, actor, cardId, limit, before }: { db: DbClient; actor: Actor; cardId: number; limit: number; before?: number | undefined }) {
  await requireCard(db, actor, cardId);
  const rows = await db.comment.findMany({
    where: { cardId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { comments: page.map(presentComment), nextBefore: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** Edits a comment: its author only. */
export async function updateComment(ctx: BoardContext & { commentId: number; text: string }) {
  const { row } = await requireComment(ctx.db, ctx.actor, ctx.commentId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'comment.create', async (tx, card) => {
    const current = await tx.comment.findUnique({ where: { id: row.id } });
    if (!current || current.cardId !== card.id) throw notFound('comment: not found');
    if (current.authorId !== ctx.actor.userId) throw forbidden('comment: only its author may edit it');
    const comment = presentComment(await tx.comment.update({ where: { id: current.id }, data: { text: ctx.text } }));
    return { activity: { type: 'comment.updated', data: { commentId: comment.id, comment } }, result: comment };
  });
  return result;
}

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
