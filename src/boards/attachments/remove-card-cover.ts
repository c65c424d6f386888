import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';

/** Takes the cover off a card (admins and members; idempotent; activity `card.updated` when it had one). */
export async function removeCardCover(ctx: BoardContext & { cardId: number; expectedVersion?: number | undefined }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    if (card.coverAttachmentId === null) return { activity: null, result: null };
    await tx.card.update({ where: { id: card.id }, data: { coverAttachmentId: null } });
    return { activity: { type: 'card.updated', data: { listId: card.listId } }, result: null };
  });
}
