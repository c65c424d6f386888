import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { reachableBoardIds } from '../access.js';
import { decodeCursor, encodeCursor, isCursorId } from '../page-cursor.js';
import { rankCards } from './rank-cards.js';

export interface SearchCursor {
  score: number;
  id: number;
}

/** A `nextCursor` of the cross-board search: the last hit's score and id. */
export const decodeSearchCursor = (raw: string) =>
  decodeCursor<SearchCursor>(raw, ([score, id, ...rest]) =>
    typeof score === 'number' && Number.isFinite(score) && isCursorId(id) && rest.length === 0 ? { score, id } : null,
  );

/**
 * Full-text search over every board the actor reaches (a key limited to chosen boards: those),
 * best first, a page at a time. Boards come from the same rule as GET /boards (`reachableBoardIds`);
 * archived boards, lists and cards are searched only with `archived`.
 */
export async function searchAllBoards({
  db,
  actor,
  q,
  limit,
  archived,
  cursor,
}: { db: DbClient; actor: Actor; q: string; limit: number; archived: boolean; cursor?: SearchCursor | undefined }) {
  const boardIds = await reachableBoardIds(db, actor, { activeOnly: !archived });
  const hits = await rankCards(db, { boardIds, q, limit: limit + 1, archived, after: cursor });
  const cards = hits.slice(0, limit);
  const last = cards.at(-1);
  return { cards, nextCursor: hits.length > limit && last ? encodeCursor([last.score, last.id]) : null };
}
