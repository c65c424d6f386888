import type { DbClient } from '../../platform/db.js';

/**
 * The support half of the console's metrics over [from, to): of the conversations started then, how
 * many the agent resolved alone (no hand-off, and it never said a person was needed), how many went
 * to a person (a ticket) and how many of those are solved; and the customers' "How did we do?"
 * ratings given then (average, count, each score's count). Counted by PostgreSQL.
 */
export async function supportMetrics({ db, workspaceId, from, to }: { db: DbClient; workspaceId: number; from: Date; to: Date }) {
  const [c] = await db.$queryRaw<{ total: number; alone: number; person: number; solved: number }[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE t.id IS NULL AND NOT c."needsHuman")::int AS alone,
           count(*) FILTER (WHERE t.id IS NOT NULL)::int AS person,
           count(*) FILTER (WHERE t.status IN ('solved', 'closed'))::int AS solved
    FROM "Conversation" c
    LEFT JOIN LATERAL (SELECT id, status FROM "Ticket" WHERE "conversationId" = c.id AND "workspaceId" = c."workspaceId" ORDER BY id LIMIT 1) t ON true
    WHERE c."workspaceId" = ${workspaceId} AND c."createdAt" >= ${from} AND c."createdAt" < ${to}`;
  const scores = await db.$queryRaw<{ score: number; n: number }[]>`
    SELECT score::int AS score, count(*)::int AS n FROM "TicketRating"
    WHERE "workspaceId" = ${workspaceId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
    GROUP BY score`;
  const count = scores.reduce((sum, r) => sum + r.n, 0);
  const average = count ? Math.round((scores.reduce((sum, r) => sum + r.score * r.n, 0) / count) * 100) / 100 : null;
  const byScore = [1, 2, 3, 4, 5].map((score) => ({ score, count: scores.find((r) => r.score === score)?.n ?? 0 }));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    conversations: { total: c?.total ?? 0, resolvedByAgent: c?.alone ?? 0, handedToPerson: c?.person ?? 0, solvedWithPerson: c?.solved ?? 0 },
    satisfaction: { ratings: count, average, byScore },
  };
}
