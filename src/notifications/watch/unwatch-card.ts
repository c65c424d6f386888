import type { Actor } from '../../accounts/credentials/auth.js';
import { requireCard } from '../../boards/access.js';
import type { DbClient } from '../../platform/db.js';

/** Stop watching a card (404 when the card is out of reach). Idempotent. */
export async function unwatchCard({ db, actor, cardId }: { db: DbClient; actor: Actor; cardId: number }): Promise<{ watching: boolean }> {
  await requireCard(db, actor, cardId);
  await db.cardWatch.deleteMany({ where: { cardId, userId: actor.userId } });
  return { watching: false };
}
