import type { Actor } from '../../accounts/credentials/auth.js';
import { requireCard } from '../../boards/access.js';
import type { DbClient } from '../../platform/db.js';

/**
 * Watch a card, to be told of every change to it (choose-recipients.ts says which): anyone who can
 * see its board, observers too (watching changes nothing on the board). Idempotent. Watching ends
 * with the membership: a watcher who left the board is told nothing (the notifier asks who is on
 * the board).
 */
export async function watchCard({ db, actor, cardId }: { db: DbClient; actor: Actor; cardId: number }): Promise<{ watching: boolean }> {
  await requireCard(db, actor, cardId);
  await db.cardWatch.createMany({ data: [{ cardId, userId: actor.userId }], skipDuplicates: true });
  return { watching: true };
}
