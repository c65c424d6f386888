import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../platform/db.js';

/** Bumps versions of cards changed in bulk (a label or field removed, a member gone), locking them in id order. */
export async function touchCards(tx: Tx, cardIds: number[]) {
  if (cardIds.length === 0) return;
  const ids = [...new Set(cardIds)].sort((a, b) => a - b);
  await tx.$queryRaw`SELECT id FROM "Card" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
  await tx.$executeRaw`UPDATE "Card" SET version = version + 1, "updatedAt" = now() WHERE id IN (${Prisma.join(ids)})`;
}
