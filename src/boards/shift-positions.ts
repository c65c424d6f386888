import type { Tx } from '../platform/db.js';

/*
 * Positions are 0..n-1 among a list's (a board's) non-archived cards (lists): a write that adds,
 * removes or moves one shifts the others, with their parents locked first (lock-lists.ts, lock-boards.ts).
 */

/** Non-archived cards in the list, optionally not counting one. */
export function countCards(tx: Tx, listId: number, except?: number) {
  return tx.card.count({ where: { listId, archived: false, ...(except ? { id: { not: except } } : {}) } });
}

/** Non-archived lists on the board, optionally not counting one. */
export function countLists(tx: Tx, boardId: number, except?: number) {
  return tx.list.count({ where: { boardId, archived: false, ...(except ? { id: { not: except } } : {}) } });
}

/** Adds `delta` to the positions in [from, to] of a list's non-archived cards. */
export async function shiftCards(tx: Tx, listId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "Card" SET position = position + ${delta}
    WHERE "listId" = ${listId} AND archived = false AND position BETWEEN ${from} AND ${to}`;
}

/** Adds `delta` to the positions in [from, to] of a board's non-archived lists. */
export async function shiftLists(tx: Tx, boardId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "List" SET position = position + ${delta}
    WHERE "boardId" = ${boardId} AND archived = false AND position BETWEEN ${from} AND ${to}`;
}

/** Large enough for every position in the list; shifted ones stay in a transaction. */
export const END = 2_147_483_647;
