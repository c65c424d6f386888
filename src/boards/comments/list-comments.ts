import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireCard } from '../access.js';
import { presentComment } from '../presenters.js';

/** A page of a card's comments, newest first, older than `before` (a comment id). */
export async function listComments({ db, actor, cardId, limit, before }: { db: DbClient; actor: Actor; cardId: number; limit: number; before?: number | undefined }) {
  await requireCard(db, actor, cardId);
  const rows = await db.comment.findMany({
    where: { cardId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { comments: page.map(presentComment), nextBefore: rows.length > limit ? page[page.length - 1]!.id : null };
}
