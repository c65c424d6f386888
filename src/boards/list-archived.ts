import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { requireRole } from './access.js';
import { loadCardSummaries } from './json/card-json.js';

/** The board's archived lists and archived cards, most recently changed first. */
export async function listArchived({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  const [lists, cards] = await Promise.all([
    db.list.findMany({ where: { boardId, archived: true }, orderBy: { updatedAt: 'desc' } }),
    db.card.findMany({ where: { boardId, archived: true }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], select: { id: true } }),
  ]);
  return { lists, cards: await loadCardSummaries(db, cards.map((c) => c.id)) };
}
