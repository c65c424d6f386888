import type { Tx } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import { RETRY } from './retry.js';

/**
 * Positions are kept 0..n-1 among non-archived siblings by locking the parents before reading or
 * shifting them. The protocol, which makes every lock wait point follow one global order:
 * - card operations lock the lists involved (lockLists; tb_lock_lists in SQL), then the card (lock-card.ts);
 * - list and member operations lock the board(s), then ALL lists of those boards, before any write (lock-boards.ts);
 * - within a level, rows are locked in id order.
 * Locks are FOR NO KEY UPDATE, which does not conflict with the KEY SHARE locks that foreign-key
 * checks take when a card or member row referencing the parent is inserted.
 */
export interface LockedList {
  id: number;
  boardId: number;
  archived: boolean;
}

/** Locks lists in id order (tb_lock_lists, sql/lock-lists.sql) and returns them; 404 when one no longer exists. */
export async function lockLists(tx: Tx, listIds: number[]): Promise<LockedList[]> {
  const ids = [...new Set(listIds)];
  const rows = await tx.$queryRaw<LockedList[]>`SELECT id, "boardId", archived FROM tb_lock_lists(${ids}::int[])`;
  if (rows.length !== ids.length) throw notFound('list: not found');
  return rows;
}

/** The locked list, if it is still on the board it was authorised on (else RETRY: read and authorise again). */
export function stillOn(locked: LockedList[], listId: number, boardId: number): LockedList | typeof RETRY {
  const list = locked.find((l) => l.id === listId);
  return list && list.boardId === boardId ? list : RETRY;
}
