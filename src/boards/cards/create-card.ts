import { changeBoard } from '../activity/change-board.js';
import type { Tx } from '../../platform/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../platform/errors.js';
import { requireList } from '../access.js';
import type { FieldRow } from '../rows.js';
import { listArchivedRefusal } from './card-refusal.js';
import { lockLabelsOnBoard } from '../lock-labels-on-board.js';
import { fullCard, summaryOf } from '../json/card-json.js';
import type { BoardContext } from '../context.js';
import { type FieldValue, fitFieldValue } from '../fit-field-value.js';
import { authorize } from '../policy.js';
import { shiftCards } from '../shift-positions.js';
import { lockLists, stillOn } from '../lock-lists.js';
import { cardSlot } from '../target-position.js';
import { RETRY, withRetry } from '../retry.js';
import type { CardView } from '../schemas.js';

export interface NewCard {
  title: string;
  description?: string | undefined;
  /** 0..n (n = the list's cards); omitted = the end. */
  position?: number | undefined;
  dueAt?: Date | null | undefined;
  labelIds?: number[] | undefined;
  memberIds?: number[] | undefined;
  /** By field id; null sets nothing. */
  fieldValues?: Record<string, FieldValue | null> | undefined;
}

/**
 * A new card at `position` of the list (default: the end) with its due date, labels, assignees
 * and field values: one transaction, one `card.created`. The list is locked first (the lock
 * protocol: lists, then cards), then the labels, fields and memberships the card refers to are
 * locked shared, in id order, so none can be deleted or redefined between the check and the
 * insert: a concurrent deletion waits for this card, then finds it and takes it off.
 */
export async function createCard(ctx: BoardContext & { listId: number } & NewCard): Promise<CardView> {
  return withRetry(async () => {
    const { list, role } = await requireList(ctx.db, ctx.actor, ctx.listId);
    authorize(ctx.actor, 'card.write', role);
    if (ctx.memberIds?.length) authorize(ctx.actor, 'card.assign', role);
    if (ctx.fieldValues && Object.keys(ctx.fieldValues).length) authorize(ctx.actor, 'field.set', role);
    return changeBoard(ctx, async (tx, record) => {
      const locked = stillOn(await lockLists(tx, [list.id]), list.id, list.boardId);
      if (locked === RETRY) return RETRY;
      if (locked.archived) throw listArchivedRefusal('list');
      const position = await cardSlot(tx, list.id, ctx.position);
      const labelIds = await lockLabelsOnBoard(tx, { field: 'labelIds', labelIds: ctx.labelIds ?? [], boardId: locked.boardId });
      const values = await lockAndFitValues(tx, ctx.fieldValues ?? {}, locked.boardId);
      const memberIds = await lockMemberships(tx, ctx.memberIds ?? [], locked.boardId);
      await shiftCards(tx, list.id, null, position);
      const card = await tx.card.create({
        data: {
          boardId: locked.boardId,
          listId: list.id,
          title: ctx.title,
          description: ctx.description ?? '',
          position,
          dueAt: ctx.dueAt ?? null,
        },
      });
      if (labelIds.length) await tx.cardLabel.createMany({ data: labelIds.map((labelId) => ({ cardId: card.id, labelId })) });
      if (memberIds.length) await tx.cardAssignee.createMany({ data: memberIds.map((userId) => ({ cardId: card.id, userId })) });
      if (values.length) {
        await tx.cardFieldValue.createMany({
          data: values.map(({ fieldId, value }) => ({ cardId: card.id, fieldId, value: value as Prisma.InputJsonValue })),
        });
      }
      const full = await fullCard(tx, card.id);
      await record({ boardId: card.boardId, type: 'card.created', data: { cardId: card.id, listId: list.id, card: summaryOf(full) } });
      return full;
    });
  });
}

const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** The assignees' memberships, locked shared (a removal from the board waits, then unassigns them). */
async function lockMemberships(tx: Tx, userIds: number[], boardId: number) {
  const ids = sorted(userIds);
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<{ userId: number }[]>`
    SELECT "userId" FROM "BoardMember" WHERE "boardId" = ${boardId} AND "userId" IN (${Prisma.join(ids)}) ORDER BY "userId" FOR SHARE`;
  const found = new Set(rows.map((r) => r.userId));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`memberIds: user ${missing} is not a member of this list's board`);
  return ids;
}

/**
 * The field definitions, locked shared as PUT /cards/{id}/fields/{fieldId} locks its one, and each
 * value checked against its field's type by the same rule (`fitFieldValue`); nulls set nothing.
 */
async function lockAndFitValues(tx: Tx, fieldValues: Record<string, FieldValue | null>, boardId: number) {
  const ids = sorted(Object.keys(fieldValues).map(Number));
  if (ids.length === 0) return [];
  const fields = await tx.$queryRaw<FieldRow[]>`
    SELECT id, "boardId", name, type::text AS type, options FROM "CustomField"
    WHERE id IN (${Prisma.join(ids)}) AND "boardId" = ${boardId} ORDER BY id FOR SHARE`;
  const byId = new Map(fields.map((f) => [f.id, f]));
  const values: { fieldId: number; value: FieldValue }[] = [];
  for (const id of ids) {
    const field = byId.get(id);
    if (!field) throw badRequest(`fieldValues: custom field ${id} is not on this list's board`);
    const value = fieldValues[String(id)];
    if (value === null || value === undefined) continue;
    const fit = fitFieldValue(field, value);
    if ('error' in fit) throw badRequest(`fieldValues.${id}: ${fit.error}`);
    values.push({ fieldId: id, value: fit.ok });
  }
  return values;
}
