import { changeBoard } from '../activity/change-board.js';
import { requireCustomField } from '../access.js';
import { touchCards } from '../touch-cards.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentCustomField } from '../presenters.js';
import { withRetry } from '../retry.js';
import { lockField } from './lock-field.js';

/** Deletes a field and every card's value for it (board admins). */
export async function deleteCustomField(ctx: BoardContext & { fieldId: number }) {
  const { row, role } = await requireCustomField(ctx.db, ctx.actor, ctx.fieldId);
  authorize(ctx.actor, 'field.define', role);
  await withRetry(() =>
    changeBoard(ctx, async (tx, record) => {
      if (!(await lockField(tx, row.id, 'update'))) return null;
      const values = await tx.cardFieldValue.findMany({ where: { fieldId: row.id }, select: { cardId: true } });
      const cardIds = values.map((v) => v.cardId);
      await touchCards(tx, cardIds);
      await tx.customField.delete({ where: { id: row.id } });
      await record({ boardId: row.boardId, type: 'custom_field.deleted', data: { fieldId: row.id, customField: presentCustomField(row), cardIds } });
      return null;
    }),
  );
}
