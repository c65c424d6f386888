import type { Actor } from '../accounts/credentials/auth.js';
import { requireCard } from '../boards/access.js';
import type { DbClient } from '../platform/db.js';

/** Whether the actor watches the card (404 when the card is out of their reach). */
export async function isWatching(db: DbClient, actor: Actor, cardId: number): Promise<{ watching: boolean }> {
  await requireCard(db, actor, cardId);
  const row = await db.cardWatch.findUnique({ where: { cardId_userId: { cardId, userId: actor.userId } } });
  return { watching: row !== null };
}

/**
 * Watch or stop watching a card: anyone who can see its board, observers too (watching changes
 * nothing on the board). Idempotent. Watching ends with the membership: a watcher who left the
 * board is told nothing (the notifier asks who is on the board).
 */
export async function setWatching(db: DbClient, actor: Actor, cardId: number, watching: boolean): Promise<{ watching: boolean }> {
  await requireCard(db, actor, cardId);
  if (watching) await db.cardWatch.createMany({ data: [{ cardId, userId: actor.userId }], skipDuplicates: true });
  else await db.cardWatch.deleteMany({ where: { cardId, userId: actor.userId } });
  return { watching };
}
