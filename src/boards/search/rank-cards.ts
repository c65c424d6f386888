import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../platform/db.js';
import { loadCardSummaries } from '../json/card-json.js';
import type { CardSummaryView } from '../schemas.js';

export type SearchHit = CardSummaryView & { score: number };

/**
 * The search itself, for the per-board and the cross-board search: cards of `boardIds` matching
 * `q` (PostgreSQL websearch syntax), best first (score, then newest id), after `after` (the last
 * hit of the previous page) when given. The weighted document and its GIN index are kept by
 * triggers (sql/card-search.sql), so a change is searchable as soon as it commits. Archived cards,
 * and cards of archived lists, only when `archived` is true. The caller resolves `boardIds` from
 * the actor's reach.
 */
export async function rankCards(
  db: DbClient,
  { boardIds, q, limit, archived, after }: { boardIds: number[]; q: string; limit: number; archived: boolean; after?: { score: number; id: number } | undefined },
): Promise<SearchHit[]> {
  if (boardIds.length === 0) return [];
  const page = after ? Prisma.sql`AND (h.score, h.id) < (${after.score}::float8, ${after.id}::int)` : Prisma.empty;
  const hits = await db.$queryRaw<{ id: number; score: number }[]>`
    SELECT h.id, h.score FROM (
      SELECT c.id, ts_rank(c.search, query)::float8 AS score
      FROM "Card" c JOIN "List" l ON l.id = c."listId", websearch_to_tsquery('english', ${q}) query
      WHERE c."boardId" IN (${Prisma.join(boardIds)}) AND c.search @@ query AND (${archived} OR (NOT c.archived AND NOT l.archived))
    ) h
    WHERE true ${page}
    ORDER BY h.score DESC, h.id DESC
    LIMIT ${limit}`;
  const summaries = await loadCardSummaries(db, hits.map((h) => h.id));
  const score = new Map(hits.map((h) => [h.id, h.score]));
  return summaries.map((card): SearchHit => ({ ...card, score: score.get(card.id)! }));
}
