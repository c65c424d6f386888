import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';
import { rankCards } from './rank-cards.js';

/** Full-text search of one board's cards (titles, descriptions, checklist items, comments), best first. */
export async function searchCards({ db, actor, boardId, q, limit, archived }: { db: DbClient; actor: Actor; boardId: number; q: string; limit: number; archived: boolean }) {
  await requireRole(db, actor, boardId);
  return rankCards(db, { boardIds: [boardId], q, limit, archived });
}
