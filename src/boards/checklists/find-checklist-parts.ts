import type { Tx } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/*
 * Checklists and their items are parts of a card: every change locks the card row first
 * (changeCardParts), which serialises changes to one card, so positions stay 0..n-1 without
 * locks of their own (the shifts: shift-positions.ts). Item positions are ordered like cards;
 * checklists by creation.
 */

export const withItems = { items: { orderBy: { position: 'asc' } } } as const;

/** The checklist (not its items), read on the locked card: 404 when it is not (or no longer) on it. */
export async function checklistOf(tx: Tx, checklistId: number, cardId: number) {
  const checklist = await tx.checklist.findUnique({ where: { id: checklistId } });
  if (!checklist || checklist.cardId !== cardId) throw notFound('checklist: not found');
  return checklist;
}

/** The item, read in its checklist: 404 when it is not (or no longer) in it. */
export async function itemOf(tx: Tx, itemId: number, checklistId: number) {
  const item = await tx.checklistItem.findUnique({ where: { id: itemId } });
  if (!item || item.checklistId !== checklistId) throw notFound('item: not found');
  return item;
}
