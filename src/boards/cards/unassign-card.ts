import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';

/** Unassigns a user from a card; idempotent. */
export async function unassignCard(ctx: BoardContext & { cardId: number; userId: number }) {
  return changeCardParts(ctx, 'card.assign', async (tx, card) => {
    const removed = await tx.cardAssignee.deleteMany({ where: { cardId: card.id, userId: ctx.userId } });
    return { activity: removed.count ? { type: 'card.member_removed', data: { userId: ctx.userId } } : null, result: null };
  });
}
