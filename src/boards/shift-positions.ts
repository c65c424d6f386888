import type { Tx } from '../platform/db.js';

/*
 * Positions are 0..n-1 among a parent's open rows, with the parent locked first (lock-lists.ts,
 * lock-boards.ts, lock-card.ts). The shift is written once, in sql/shift-positions.sql, which the
 * card statements call too: a row leaves position `left` (null: it is new or comes from another
 * parent) and takes position `taken` (null: it goes to another parent, is archived or deleted).
 * Nothing to shift (left = taken) costs no round trip. Where the row goes (a requested 0..n, or the
 * end) is target-position.ts's.
 */

/** Shifts a list's open cards for one that leaves `left` and takes `taken` (tb_shift_cards). */
export async function shiftCards(tx: Tx, listId: number, left: number | null, taken: number | null) {
  if (left === taken) return;
  await tx.$executeRaw`SELECT tb_shift_cards(${listId}::int, ${left}::int, ${taken}::int)`;
}

/** Shifts a board's open lists for one that leaves `left` and takes `taken` (tb_shift_lists). */
export async function shiftLists(tx: Tx, boardId: number, left: number | null, taken: number | null) {
  if (left === taken) return;
  await tx.$executeRaw`SELECT tb_shift_lists(${boardId}::int, ${left}::int, ${taken}::int)`;
}

/** Shifts a card's checklists for one that leaves `left` and takes `taken` (tb_shift_checklists). */
export async function shiftChecklists(tx: Tx, cardId: number, left: number | null, taken: number | null) {
  if (left === taken) return;
  await tx.$executeRaw`SELECT tb_shift_checklists(${cardId}::int, ${left}::int, ${taken}::int)`;
}

/** Shifts a checklist's items for one that leaves `left` and takes `taken` (tb_shift_items). */
export async function shiftItems(tx: Tx, checklistId: number, left: number | null, taken: number | null) {
  if (left === taken) return;
  await tx.$executeRaw`SELECT tb_shift_items(${checklistId}::int, ${left}::int, ${taken}::int)`;
}
