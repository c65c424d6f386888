import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { requireCard } from '../access.js';
import { loadFullCard } from '../json/card-json.js';
import type { CardView } from '../schemas.js';

/** One card the actor can reach, in full. */
export async function getCard({ db, actor, cardId }: { db: DbClient; actor: Actor; cardId: number }): Promise<CardView> {
  await requireCard(db, actor, cardId);
  const card = await loadFullCard(db, cardId);
  if (!card) throw notFound('card: not found');
  return card;
}
