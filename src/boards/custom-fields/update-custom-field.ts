import { changeBoard } from '../activity/change-board.js';
import { badRequest } from '../../platform/errors.js';
import { requireCustomField } from '../access.js';
import { touchCards } from '../touch-cards.js';
import type { BoardContext } from '../context.js';
import { carryFieldValue } from '../carry-field-value.js';
import { authorize } from '../policy.js';
import { presentCustomField } from '../presenters.js';
import { withRetry } from '../retry.js';
import { checkFieldOptions, type FieldType } from './check-field-options.js';
import { lockField } from './lock-field.js';

/**
 * Renames a field, changes its type or its options (board admins). Values that no longer fit
 * are converted where nothing is lost, else cleared; the cards concerned get a new version.
 */
export async function updateCustomField(
  ctx: BoardContext & { fieldId: number; name?: string | undefined; type?: FieldType | undefined; options?: string[] | undefined },
) {
  const { row, role } = await requireCustomField(ctx.db, ctx.actor, ctx.fieldId);
  authorize(ctx.actor, 'field.define', role);
  return withRetry(() =>
    changeBoard(ctx, async (tx, record) => {
      const current = await lockField(tx, row.id, 'update');
      if (!current) throw badRequest('custom field: no longer exists');
      const type = ctx.type ?? current.type;
      const options = ctx.options ?? (type === 'list' ? current.options : []);
      checkFieldOptions(type, options);
      // Values are carried over only when what they are checked against changed: a rename keeps them as they are.
      const redefined = type !== current.type || options.join('\u0000') !== current.options.join('\u0000');
      const values = redefined ? await tx.cardFieldValue.findMany({ where: { fieldId: current.id } }) : [];
      const changed = values
        .map((v) => ({ cardId: v.cardId, before: v.value, after: carryFieldValue({ type, options }, v.value) }))
        .filter((v) => v.after !== v.before);
      await touchCards(tx, changed.map((v) => v.cardId));
      const cleared = changed.filter((v) => v.after === null).map((v) => v.cardId);
      if (cleared.length) await tx.cardFieldValue.deleteMany({ where: { fieldId: current.id, cardId: { in: cleared } } });
      for (const v of changed) {
        if (v.after !== null) {
          await tx.cardFieldValue.update({ where: { cardId_fieldId: { cardId: v.cardId, fieldId: current.id } }, data: { value: v.after } });
        }
      }
      const field = await tx.customField.update({ where: { id: current.id }, data: { name: ctx.name, type, options } });
      await record({
        boardId: field.boardId,
        type: 'custom_field.updated',
        data: {
          fieldId: field.id,
          customField: presentCustomField(field),
          clearedCardIds: cleared,
          convertedCardIds: changed.filter((v) => v.after !== null).map((v) => v.cardId),
        },
      });
      return field;
    }),
  );
}
