import type { Tx } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { END } from '../shift-positions.js';

/*
 * Checklists and their items are parts of a card: every change locks the card row first
 * (changeCardParts), which serialises changes to one card, so positions stay 0..n-1 without
 * locks of their own. Item positions are ordered like cards; checklists by creation.
 */

export const withItems = { items: { orderBy: { position: 'asc' } } } as const;

export async function checklistOf(tx: Tx, checklistId: number, cardId: number) {
  const checklist = await tx.checklist.findUnique({ where: { id: checklistId }, include: withItems });
  if (!checklist || checklist.cardId !== cardId) throw notFound('checklist: not found');
  return checklist;
}

export async function itemOf(tx: Tx, itemId: number, checklistId: number) {
  const item = await tx.checklistItem.findUnique({ where: { id: itemId } });
  if (!item || item.checklistId !== checklistId) throw notFound('item: not found');
  return item;
}

export async function shiftItems(tx: Tx, checklistId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "ChecklistItem" SET position = position + ${delta}
    WHERE "checklistId" = ${checklistId} AND position BETWEEN ${from} AND ${to}`;
}

/** Deletes an item and closes its checklist's gap (the card must be locked). */
export async function removeItem(tx: Tx, item: { id: number; checklistId: number; position: number }) {
  await tx.checklistItem.delete({ where: { id: item.id } });
  await shiftItems(tx, item.checklistId, item.position + 1, END, -1);
}
