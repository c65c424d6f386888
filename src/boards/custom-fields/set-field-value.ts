import type { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../platform/errors.js';
import type { FieldRow } from '../rows.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { fitFieldValue } from '../fit-field-value.js';
import { lockField } from './lock-field.js';

/** Sets (or with null, clears) a card's value for a field of its board, checked against the field's type. */
export async function setFieldValue(ctx: BoardContext & { cardId: number; fieldId: number; value: unknown }) {
  // The definition is held (shared) from before the card is locked until the commit: it cannot
  // change under the value being checked, and the lock order is the field's update's (field, cards).
  let field: FieldRow | null = null;
  return changeCardParts(
    ctx,
    'field.set',
    async (tx, card) => {
      if (!field || field.boardId !== card.boardId) throw badRequest(`fieldId: custom field ${ctx.fieldId} is not on this card's board`);
      const key = { cardId_fieldId: { cardId: card.id, fieldId: field.id } };
      const existing = await tx.cardFieldValue.findUnique({ where: key });
      if (ctx.value === null) {
        if (!existing) return { activity: null, result: null };
        await tx.cardFieldValue.delete({ where: key });
        return { activity: { type: 'card.field_set', data: { fieldId: field.id, value: null } }, result: null };
      }
      const fit = fitFieldValue(field, ctx.value);
      if ('error' in fit) throw badRequest(`value: ${fit.error}`);
      if (existing && existing.value === fit.ok) return { activity: null, result: null };
      const value = fit.ok as Prisma.InputJsonValue;
      await tx.cardFieldValue.upsert({ where: key, create: { cardId: card.id, fieldId: field.id, value }, update: { value } });
      return { activity: { type: 'card.field_set', data: { fieldId: field.id, value: fit.ok } }, result: null };
    },
    async (tx) => {
      field = await lockField(tx, ctx.fieldId, 'share');
    },
  );
}
