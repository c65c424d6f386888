import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../platform/db.js';
import { notFound } from '../platform/errors.js';

/**
 * Locks boards in id order, then every list on them; 404 when a board no longer exists. List and
 * member operations take it before any write: the lock order is written beside LockedList (lock-lists.ts).
 */
export async function lockBoards(tx: Tx, boardIds: number[]) {
  const ids = [...new Set(boardIds)].sort((a, b) => a - b);
  const rows = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM "Board" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
  if (rows.length !== ids.length) throw notFound('board: not found');
  await tx.$queryRaw`SELECT id FROM "List" WHERE "boardId" IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
}
