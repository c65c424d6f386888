import { changeBoard } from '../activity/change-board.js';
import { requireLabel } from '../access.js';
import { touchCards } from '../touch-cards.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import { withRetry } from '../retry.js';

/** Deletes a label; the cards that had it lose it (their versions grow). */
export async function deleteLabel(ctx: BoardContext & { labelId: number }) {
  const { row, role } = await requireLabel(ctx.db, ctx.actor, ctx.labelId);
  authorize(ctx.actor, 'label.write', role);
  await withRetry(() =>
    changeBoard(ctx, async (tx, record) => {
      // The label first: no card can take it while its cards are collected.
      const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "Label" WHERE id = ${row.id} FOR UPDATE`;
      if (!locked) return null;
      const cards = await tx.cardLabel.findMany({ where: { labelId: row.id }, select: { cardId: true } });
      const cardIds = cards.map((c) => c.cardId);
      await touchCards(tx, cardIds);
      await tx.label.delete({ where: { id: row.id } });
      await record({ boardId: row.boardId, type: 'label.deleted', data: { labelId: row.id, label: presentLabel(row), cardIds } });
      return null;
    }),
  );
}
