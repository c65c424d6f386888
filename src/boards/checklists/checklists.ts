import type { Tx } from '../activity/change-board.js';
import { notFound } from '../../platform/errors.js';
import { requireChecklist, requireItem } from '../access.js';
import { changeCardParts } from '../cards/card-change.js';
import type { BoardContext } from '../context.js';
import { END, targetPosition } from '../positions.js';
import { presentChecklist, presentItem } from '../presenters.js';

/*
 * Checklists and their items are parts of a card: every change locks the card row first
 * (changeCardParts), which serialises changes to one card, so positions stay 0..n-1 without
 * locks of their own. Item positions are ordered like cards; checklists by creation.
 */

const withItems = { items: { orderBy: { position: 'asc' } } } as const;

async function checklistOf(tx: Tx, checklistId: number, cardId: number) {
  const checklist = await tx.checklist.findUnique({ where: { id: checklistId }, include: withItems });
  if (!checklist || checklist.cardId !== cardId) throw notFound('checklist: not found');
  return checklist;
}

async function itemOf(tx: Tx, itemId: number, checklistId: number) {
  const item = await tx.checklistItem.findUnique({ where: { id: itemId } });
  if (!item || item.checklistId !== checklistId) throw notFound('item: not found');
  return item;
}

async function shiftItems(tx: Tx, checklistId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "ChecklistItem" SET position = position + ${delta}
    WHERE "checklistId" = ${checklistId} AND position BETWEEN ${from} AND ${to}`;
}

/** A new, empty checklist after the card's others. */
export async function createChecklist(ctx: BoardContext & { cardId: number; name: string }) {
  const { result } = await changeCardParts(ctx, 'checklist.write', async (tx, card) => {
    const position = await tx.checklist.count({ where: { cardId: card.id } });
    const checklist = presentChecklist(await tx.checklist.create({ data: { cardId: card.id, name: ctx.name, position }, include: withItems }));
    return { activity: { type: 'checklist.created', data: { checklistId: checklist.id, checklist } }, result: checklist };
  });
  return result;
}

/** Renames a checklist. */
export async function renameChecklist(ctx: BoardContext & { checklistId: number; name: string }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    await checklistOf(tx, row.id, card.id);
    const checklist = presentChecklist(await tx.checklist.update({ where: { id: row.id }, data: { name: ctx.name }, include: withItems }));
    return { activity: { type: 'checklist.updated', data: { checklistId: checklist.id, checklist } }, result: checklist };
  });
  return result;
}

/** Deletes a checklist with its items; the card's other checklists close up. */
export async function deleteChecklist(ctx: BoardContext & { checklistId: number }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.id, card.id);
    await tx.checklist.delete({ where: { id: checklist.id } });
    await tx.$executeRaw`UPDATE "Checklist" SET position = position - 1 WHERE "cardId" = ${card.id} AND position > ${checklist.position}`;
    return { activity: { type: 'checklist.deleted', data: { checklistId: checklist.id } }, result: null };
  });
}

/** A new item at the end of the checklist. */
export async function createItem(ctx: BoardContext & { checklistId: number; name: string; checked?: boolean | undefined }) {
  const { row } = await requireChecklist(ctx.db, ctx.actor, ctx.checklistId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.id, card.id);
    const item = presentItem(
      await tx.checklistItem.create({ data: { checklistId: checklist.id, name: ctx.name, checked: ctx.checked ?? false, position: checklist.items.length } }),
    );
    return { activity: { type: 'item.created', data: { checklistId: checklist.id, itemId: item.id, item } }, result: item };
  });
  return result;
}

/** Renames, checks/unchecks or moves an item within its checklist (position 0..n-1). */
export async function updateItem(
  ctx: BoardContext & { itemId: number; name?: string | undefined; checked?: boolean | undefined; position?: number | undefined },
) {
  const { row } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
  const { result } = await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.checklistId, card.id);
    const current = await itemOf(tx, row.id, checklist.id);
    let position = current.position;
    if (ctx.position !== undefined) {
      // 0..n-1: the item is one of the n, so the end is n-1.
      position = targetPosition(ctx.position, checklist.items.length - 1);
      if (position > current.position) await shiftItems(tx, checklist.id, current.position + 1, position, -1);
      if (position < current.position) await shiftItems(tx, checklist.id, position, current.position - 1, 1);
    }
    const item = presentItem(await tx.checklistItem.update({ where: { id: current.id }, data: { name: ctx.name, checked: ctx.checked, position } }));
    return { activity: { type: 'item.updated', data: { checklistId: checklist.id, itemId: item.id, item } }, result: item };
  });
  return result;
}

/** Deletes an item; the others close up. */
export async function deleteItem(ctx: BoardContext & { itemId: number }) {
  const { row } = await requireItem(ctx.db, ctx.actor, ctx.itemId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'checklist.write', async (tx, card) => {
    const checklist = await checklistOf(tx, row.checklistId, card.id);
    const item = await itemOf(tx, row.id, checklist.id);
    await removeItem(tx, item);
    return { activity: { type: 'item.deleted', data: { checklistId: checklist.id, itemId: item.id } }, result: null };
  });
}

/** Deletes an item and closes its checklist's gap (the card must be locked). */
export async function removeItem(tx: Tx, item: { id: number; checklistId: number; position: number }) {
  await tx.checklistItem.delete({ where: { id: item.id } });
  await shiftItems(tx, item.checklistId, item.position + 1, END, -1);
}
