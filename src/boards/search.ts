import type { Actor } from '../platform/auth.js';
import type { DbClient } from '../platform/db.js';
import { requireRole } from './access.js';
import { loadCardSummaries } from './card-json.js';
import type { CardSummaryView } from './schemas.js';

/**
 * Full-text search of a board's cards (titles, descriptions, checklist items, comments) with
 * PostgreSQL's websearch syntax, best first. The weighted document and its GIN index are kept
 * by triggers (see the migration), so a change is searchable as soon as it commits.
 * Archived cards, and cards of archived lists, only when `archived` is true.
 */
export async function searchCards({ db, actor, boardId, q, limit, archived }: { db: DbClient; actor: Actor; boardId: number; q: string; limit: number; archived: boolean }) {
  await requireRole(db, actor, boardId);
  const hits = await db.$queryRaw<{ id: number; score: number }[]>`
    SELECT c.id, ts_rank(c.search, query)::float8 AS score
    FROM "Card" c JOIN "List" l ON l.id = c."listId", websearch_to_tsquery('english', ${q}) query
    WHERE c."boardId" = ${boardId} AND c.search @@ query AND (${archived} OR (NOT c.archived AND NOT l.archived))
    ORDER BY score DESC, c.id DESC
    LIMIT ${limit}`;
  const summaries = await loadCardSummaries(db, hits.map((h) => h.id));
  const score = new Map(hits.map((h) => [h.id, h.score]));
  return summaries.map((card): CardSummaryView & { score: number } => ({ ...card, score: score.get(card.id)! }));
}
