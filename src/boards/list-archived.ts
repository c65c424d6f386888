import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { requireRole } from './access.js';
import { loadCardSummaries } from './json/card-json.js';

/** The board's archived lists (each with how many cards it holds) and archived cards, most recently changed first. */
export async function listArchived({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  const [lists, cards] = await Promise.all([
    db.list.findMany({ where: { boardId, archived: true }, orderBy: { updatedAt: 'desc' } }),
    db.card.findMany({ where: { boardId, archived: true }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], select: { id: true } }),
  ]);
  const counts = lists.length
    ? await db.card.groupBy({ by: ['listId'], where: { listId: { in: lists.map((l) => l.id) } }, _count: { _all: true } })
    : [];
  const cardCount = new Map(counts.map((c) => [c.listId, c._count._all]));
  return {
    lists: lists.map((list) => ({ list, cardCount: cardCount.get(list.id) ?? 0 })),
    cards: await loadCardSummaries(db, cards.map((c) => c.id)),
  };
}
