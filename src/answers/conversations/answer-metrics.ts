import type { DbClient } from '../../platform/db.js';

export interface MetricsFilter {
  workspaceId: number;
  from: Date;
  to: Date;
  agentId?: string | undefined;
  channel?: string | undefined;
}

interface Row {
  day: string | null;
  answers: number;
  needsHuman: number;
  high: number;
  medium: number;
  low: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

/**
 * Answers per UTC day and over the whole range: count, share needing a human, confidence mix and
 * latency percentiles (ms), computed by PostgreSQL over the stored turns.
 */
export async function answerMetrics({ db, filter }: { db: DbClient; filter: MetricsFilter }) {
  const rows = await db.$queryRaw<Row[]>`
    SELECT CASE WHEN GROUPING(date_trunc('day', "createdAt" AT TIME ZONE 'UTC')) = 1 THEN NULL
                ELSE to_char(date_trunc('day', "createdAt" AT TIME ZONE 'UTC'), 'YYYY-MM-DD') END AS day,
           count(*)::int AS answers,
           count(*) FILTER (WHERE "needsHuman")::int AS "needsHuman",
           count(*) FILTER (WHERE confidence = 'high')::int AS high,
           count(*) FILTER (WHERE confidence = 'medium')::int AS medium,
           count(*) FILTER (WHERE confidence = 'low')::int AS low,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY "latencyMs") AS p50,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY "latencyMs") AS p90,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY "latencyMs") AS p99
    FROM "ConversationTurn"
    WHERE "workspaceId" = ${filter.workspaceId} AND "createdAt" >= ${filter.from} AND "createdAt" < ${filter.to}
      AND (${filter.agentId ?? null}::text IS NULL OR "agentId" = ${filter.agentId ?? null}::text)
      AND (${filter.channel ?? null}::text IS NULL OR channel = ${filter.channel ?? null}::text)
    GROUP BY ROLLUP (date_trunc('day', "createdAt" AT TIME ZONE 'UTC'))
    ORDER BY 1 NULLS FIRST`;
  const shape = (r: Row) => ({
    answers: r.answers,
    needsHuman: r.needsHuman,
    needsHumanShare: r.answers ? Math.round((r.needsHuman / r.answers) * 1000) / 1000 : 0,
    confidence: { high: r.high, medium: r.medium, low: r.low },
    latencyMs: { p50: round(r.p50), p90: round(r.p90), p99: round(r.p99) },
  });
  const total = rows.find((r) => r.day === null);
  const empty: Row = { day: null, answers: 0, needsHuman: 0, high: 0, medium: 0, low: 0, p50: null, p90: null, p99: null };
  return {
    from: filter.from.toISOString(),
    to: filter.to.toISOString(),
    total: shape(total ?? empty),
    days: rows.filter((r) => r.day !== null).map((r) => ({ day: r.day!, ...shape(r) })),
  };
}

const round = (n: number | null) => (n === null ? null : Math.round(Number(n)));
