import { changeCardParts } from '../card-change.js';
import type { BoardContext } from '../context.js';
import { presentComment } from '../presenters.js';

/** A comment on a card, by the actor; observers may comment too. */
export async function createComment(ctx: BoardContext & { cardId: number; text: string }) {
  const { result } = await changeCardParts(ctx, 'comment.create', async (tx, card) => {
    const comment = presentComment(await tx.comment.create({ data: { cardId: card.id, authorId: ctx.actor.userId, authorName: ctx.actor.name, text: ctx.text } }));
    return { activity: { type: 'comment.created', data: { commentId: comment.id, comment } }, result: comment };
  });
  return result;
}
