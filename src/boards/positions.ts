import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../events/board-change.js';
import { badRequest } from '../platform/errors.js';

/**
 * Positions are kept 0..n-1 among non-archived siblings by taking a row lock on the parent
 * (the list for cards, the board for lists) before reading or shifting them. Locks are taken in
 * id order, so two transactions locking the same parents cannot deadlock.
 */
export async function lockLists(tx: Tx, listIds: number[]) {
  const ids = [...new Set(listIds)].sort((a, b) => a - b);
  return tx.$queryRaw<{ id: number; boardId: number; archived: boolean }[]>`
    SELECT id, "boardId", archived FROM "List" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR UPDATE`;
}

export async function lockBoards(tx: Tx, boardIds: number[]) {
  const ids = [...new Set(boardIds)].sort((a, b) => a - b);
  await tx.$queryRaw`SELECT id FROM "Board" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR UPDATE`;
}

/** Non-archived cards in the list, optionally not counting one. */
export function countCards(tx: Tx, listId: number, except?: number) {
  return tx.card.count({ where: { listId, archived: false, ...(except ? { id: { not: except } } : {}) } });
}

export function countLists(tx: Tx, boardId: number, except?: number) {
  return tx.list.count({ where: { boardId, archived: false, ...(except ? { id: { not: except } } : {}) } });
}

/** Adds `delta` to the positions in [from, to] of a list's non-archived cards. */
export async function shiftCards(tx: Tx, listId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "Card" SET position = position + ${delta}
    WHERE "listId" = ${listId} AND archived = false AND position BETWEEN ${from} AND ${to}`;
}

export async function shiftLists(tx: Tx, boardId: number, from: number, to: number, delta: 1 | -1) {
  if (from > to) return;
  await tx.$executeRaw`UPDATE "List" SET position = position + ${delta}
    WHERE "boardId" = ${boardId} AND archived = false AND position BETWEEN ${from} AND ${to}`;
}

/** A requested position 0..n (omitted: the end); anything else is the client's mistake. */
export function targetPosition(requested: number | undefined, n: number): number {
  if (requested === undefined) return n;
  if (requested < 0 || requested > n) throw badRequest(`position: must be between 0 and ${n}`);
  return requested;
}

/** Large enough for every position in the list; shifted ones stay in a transaction. */
export const END = 2_147_483_647;
