import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { lockLabelsOnBoard } from '../lock-labels-on-board.js';

/** Puts a label on a card; idempotent (no new version or activity when it is already there). */
export async function addCardLabel(ctx: BoardContext & { cardId: number; labelId: number }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    await lockLabelsOnBoard(tx, { field: 'labelId', labelIds: [ctx.labelId], boardId: card.boardId });
    const added = await tx.cardLabel.createMany({ data: [{ cardId: card.id, labelId: ctx.labelId }], skipDuplicates: true });
    return { activity: added.count ? { type: 'card.label_added', data: { labelId: ctx.labelId } } : null, result: null };
  });
}
