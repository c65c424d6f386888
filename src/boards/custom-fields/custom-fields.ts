import { changeBoard, type Tx } from '../activity/change-board.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../platform/errors.js';
import { requireCustomField, requireRole } from '../access.js';
import type { FieldRow } from '../rows.js';
import { changeCardParts, touchCards } from '../cards/card-change.js';
import type { BoardContext } from '../context.js';
import { carryValue, fitValue } from '../field-values.js';
import { authorize } from '../policy.js';
import { presentCustomField } from '../presenters.js';
import { withRetry } from '../retry.js';

type FieldType = FieldRow['type'];

/** Options belong to list fields only, and a list field needs some. */
function checkOptions(type: FieldType, options: string[]) {
  if (type !== 'list' && options.length > 0) throw badRequest('options: only list fields have options');
  if (type === 'list' && options.length === 0) throw badRequest('options: a list field needs at least one option');
  if (new Set(options).size !== options.length) throw badRequest('options: must not repeat');
}

/** A new custom field on the board (board admins). */
export async function createCustomField(ctx: BoardContext & { boardId: number; name: string; type: FieldType; options?: string[] | undefined }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'field.define', role);
  const options = ctx.options ?? [];
  checkOptions(ctx.type, options);
  return changeBoard(ctx, async (tx, record) => {
    const field = await tx.customField.create({ data: { boardId: ctx.boardId, name: ctx.name, type: ctx.type, options } });
    await record({ boardId: field.boardId, type: 'custom_field.created', data: { fieldId: field.id, customField: presentCustomField(field) } });
    return field;
  });
}

/** Locks a field (values being set hold it shared, so its definition cannot change under them). */
async function lockField(tx: Tx, fieldId: number, mode: 'update' | 'share') {
  const [field] =
    mode === 'update'
      ? await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR UPDATE`
      : await tx.$queryRaw<FieldRow[]>`SELECT id, "boardId", name, type::text AS type, options FROM "CustomField" WHERE id = ${fieldId} FOR SHARE`;
  return field ?? null;
}

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
      checkOptions(type, options);
      // Values are carried over only when what they are checked against changed: a rename keeps them as they are.
      const redefined = type !== current.type || options.join('\u0000') !== current.options.join('\u0000');
      const values = redefined ? await tx.cardFieldValue.findMany({ where: { fieldId: current.id } }) : [];
      const changed = values
        .map((v) => ({ cardId: v.cardId, before: v.value, after: carryValue({ type, options }, v.value) }))
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
      const fit = fitValue(field, ctx.value);
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
