import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../platform/db.js';
import { badRequest, notFound } from '../platform/errors.js';
import { RETRY } from './retry.js';

/**
 * Positions are kept 0..n-1 among non-archived siblings by locking the parents before reading or
 * shifting them. The protocol, which makes every lock wait point follow one global order:
 * - card operations lock the lists involved, then the card;
 * - list and member operations lock the board(s), then ALL lists of those boards, before any write;
 * - within a level, rows are locked in id order.
 * Locks are FOR NO KEY UPDATE, which does not conflict with the KEY SHARE locks that foreign-key
 * checks take when a card or member row referencing the parent is inserted.
 */
export interface LockedList {
  id: number;
  boardId: number;
  archived: boolean;
}

/** Locks lists in id order and returns them; 404 when one no longer exists. */
export async function lockLists(tx: Tx, listIds: number[]): Promise<LockedList[]> {
  const ids = [...new Set(listIds)].sort((a, b) => a - b);
  const rows = await tx.$queryRaw<LockedList[]>`
    SELECT id, "boardId", archived FROM "List" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
  if (rows.length !== ids.length) throw notFound('list: not found');
  return rows;
}

/** The locked list, if it is still on the board it was authorised on (else RETRY: read and authorise again). */
export function stillOn(locked: LockedList[], listId: number, boardId: number): LockedList | typeof RETRY {
  const list = locked.find((l) => l.id === listId);
  return list && list.boardId === boardId ? list : RETRY;
}

/** Locks boards in id order, then every list on them; 404 when a board no longer exists. */
export async function lockBoards(tx: Tx, boardIds: number[]) {
  const ids = [...new Set(boardIds)].sort((a, b) => a - b);
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM "Board" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
  if (rows.length !== ids.length) throw notFound('board: not found');
  await tx.$queryRaw`SELECT id FROM "List" WHERE "boardId" IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
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
  if (requested < 0 || requested > n) throw positionRefusal(n);
  return requested;
}

/** The 400 for a position outside 0..n: targetPosition's, and a card statement's. */
export const positionRefusal = (n: number) => badRequest(`position: must be between 0 and ${n}`);

/** Large enough for every position in the list; shifted ones stay in a transaction. */
export const END = 2_147_483_647;
