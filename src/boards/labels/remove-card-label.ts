import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { lockLabelsOnBoard } from '../lock-labels-on-board.js';

/** Takes a label off a card; idempotent. */
export async function removeCardLabel(ctx: BoardContext & { cardId: number; labelId: number }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    await lockLabelsOnBoard(tx, { field: 'labelId', labelIds: [ctx.labelId], boardId: card.boardId });
    const removed = await tx.cardLabel.deleteMany({ where: { cardId: card.id, labelId: ctx.labelId } });
    return { activity: removed.count ? { type: 'card.label_removed', data: { labelId: ctx.labelId } } : null, result: null };
  });
}
