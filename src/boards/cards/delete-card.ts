import { changeBoard } from '../activity/change-board.js';
import { requireCard } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { shiftCards } from '../shift-positions.js';
import { lockLists, stillOn } from '../lock-lists.js';
import { lockCard } from '../lock-card.js';
import { RETRY, withRetry } from '../retry.js';

/** Deletes a card (board admins only), closing its gap. */
export async function deleteCard(ctx: BoardContext & { cardId: number; expectedVersion?: number | undefined }) {
  await withRetry(async () => {
    const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
    authorize(ctx.actor, 'card.delete', role);
    return changeBoard(ctx, async (tx, record) => {
      if (stillOn(await lockLists(tx, [card.listId]), card.listId, card.boardId) === RETRY) return RETRY;
      const current = await lockCard(tx, card, { expectedVersion: ctx.expectedVersion });
      if (current === RETRY) return RETRY;
      if (!current.archived) await shiftCards(tx, current.listId, current.position, null);
      await tx.card.delete({ where: { id: current.id } });
      await record({ boardId: current.boardId, type: 'card.deleted', data: { cardId: current.id, listId: current.listId } });
      return current;
    });
  });
  ctx.effects.committed({ kind: 'file.deleted' }); // the card's files, after the commit
}
