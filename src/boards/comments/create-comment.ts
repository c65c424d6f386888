import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { presentComment } from '../presenters.js';

/**
 * A comment on a card, by the actor; observers may comment too. With `byName`, the comment's author
 * is that name without an account here (a ticket's requester, whose answers the tickets module
 * writes on the ticket's card): authorId null, the one shape for every author who is not a user.
 * The actor still authorises the comment and is the activity's actor.
 */
export async function createComment(ctx: BoardContext & { cardId: number; text: string; byName?: string | undefined }) {
  const author = ctx.byName !== undefined ? { authorId: null, authorName: ctx.byName } : { authorId: ctx.actor.userId, authorName: ctx.actor.name };
  const { result } = await changeCardParts(ctx, 'comment.create', async (tx, card) => {
    const comment = presentComment(await tx.comment.create({ data: { cardId: card.id, ...author, text: ctx.text } }));
    return { activity: { type: 'comment.created', data: { commentId: comment.id, comment } }, result: comment };
  });
  return result;
}
