import type { Actor } from '../../accounts/credentials/auth.js';
import { requireCard } from '../../boards/access.js';
import type { DbClient } from '../../platform/db.js';

/** Whether the actor watches the card (404 when the card is out of their reach). */
export async function getCardWatch({ db, actor, cardId }: { db: DbClient; actor: Actor; cardId: number }): Promise<{ watching: boolean }> {
  await requireCard(db, actor, cardId);
  const row = await db.cardWatch.findUnique({ where: { cardId_userId: { cardId, userId: actor.userId } } });
  return { watching: row !== null };
}
