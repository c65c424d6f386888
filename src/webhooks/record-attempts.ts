import type { ClaimedDelivery } from './claim-deliveries.js';
import type { OutboxSql } from '../platform/outbox-sql.js';
import type { AttemptOutcome } from './send-attempt.js';

/** A finished attempt and what it does to its delivery. */
export interface AttemptResult {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  succeeded: boolean;
  gone: boolean;
  status: 'succeeded' | 'failed' | 'pending';
  round: number;
  nextAttemptAt: number;
}

/**
 * One statement for a batch of attempts: each attempt's row; each delivery moved on only while
 * its claim's lease still holds it (the fencing token); each endpoint updated only when its state
 * changes (a first failure, a success after failures, a 410, failing for WEBHOOK_DISABLE_AFTER),
 * so the healthy path takes no lock on the endpoint's row. Returns the deliveries it moved that
 * wait for a retry, and the endpoints it disabled.
 */
export async function recordAttempts({ sql, batch, disableAfterMs }: { sql: OutboxSql; batch: AttemptResult[]; disableAfterMs: number }) {
  const now = new Date();
  const disableBefore = new Date(now.getTime() - disableAfterMs);
  const iso = (ms: number) => new Date(ms).toISOString();
  // One JSON parameter rather than an array per column: the client encodes it far faster.
  const input = JSON.stringify(
    batch.map((r) => ({
      id: r.delivery.id,
      lease: r.delivery.leaseUntil,
      status: r.status,
      round: r.round,
      next: iso(r.nextAttemptAt),
      started: r.outcome.startedAt.toISOString(),
      duration: r.outcome.durationMs,
      code: r.outcome.statusCode,
      error: r.outcome.error,
      excerpt: r.outcome.excerpt,
      succeeded: r.succeeded,
      gone: r.gone,
    })),
  );
  // `d.id = ANY(ids)` beside each join on the input keeps both on the primary key: joined to the
  // input alone, the planner reads the whole delivery table.
  const ids = batch.map((r) => r.delivery.id);
  const rows = await sql<{ id: number | null; disabled: string | null; endpointId: number | null }>(
    `
    WITH input AS (
      SELECT * FROM json_to_recordset($1::json) AS i(
        id int, lease timestamptz, status text, round int, next timestamptz, started timestamptz,
        duration int, code int, error text, excerpt text, succeeded boolean, gone boolean
      )
    ), attempts AS (
      -- A delivery deleted meanwhile (its endpoint was deleted) gets no attempt row. (No row lock
      -- here: the UPDATE below changes the same rows in this statement. A delete racing this
      -- very statement fails it, and the batch is written again row by row.)
      INSERT INTO "WebhookAttempt" ("deliveryId", "startedAt", "durationMs", "statusCode", error, "responseExcerpt", succeeded)
      SELECT i.id, started, duration, code, error, excerpt, succeeded FROM input i JOIN "WebhookDelivery" d ON d.id = i.id
      WHERE d.id = ANY($2::int[])
      RETURNING 1
    ), moved AS (
      UPDATE "WebhookDelivery" d
      SET status = i.status::"DeliveryStatus", round = i.round, "nextAttemptAt" = i.next, "leaseUntil" = NULL, "updatedAt" = $3::timestamptz
      FROM input i
      WHERE d.id = i.id AND d."leaseUntil" = i.lease AND d.id = ANY($2::int[])
      RETURNING d.id, d."endpointId", i.status, i.succeeded, i.gone, i.started
    ), outcome AS (
      SELECT "endpointId", bool_or(succeeded) AS ok, bool_or(gone) AS gone, min(started) FILTER (WHERE NOT succeeded) AS first_failure
      FROM moved GROUP BY "endpointId"
    ), current AS (
      SELECT e.id, e."failingSince", o.ok, o.first_failure,
             (o.gone AND e.enabled) AS gone_now,
             (NOT o.ok AND NOT o.gone AND e.enabled AND COALESCE(e."failingSince", o.first_failure) <= $4::timestamptz) AS failing_now
      FROM "WebhookEndpoint" e JOIN outcome o ON o."endpointId" = e.id
    ), endpoint AS (
      UPDATE "WebhookEndpoint" e
      SET "failingSince" = CASE WHEN c.ok THEN NULL ELSE COALESCE(e."failingSince", c.first_failure) END,
          enabled = e.enabled AND NOT (c.gone_now OR c.failing_now),
          "disabledReason" = CASE WHEN c.gone_now THEN 'gone' WHEN c.failing_now THEN 'failing' ELSE e."disabledReason" END,
          "disabledAt" = CASE WHEN c.gone_now OR c.failing_now THEN $3::timestamptz ELSE e."disabledAt" END,
          "updatedAt" = $3::timestamptz
      FROM current c
      WHERE e.id = c.id AND ((c.ok AND c."failingSince" IS NOT NULL) OR (NOT c.ok AND c."failingSince" IS NULL) OR c.gone_now OR c.failing_now)
      RETURNING e.id, CASE WHEN c.gone_now OR c.failing_now THEN e."disabledReason" END AS disabled
    )
    SELECT id, NULL AS disabled, NULL::int AS "endpointId" FROM moved WHERE status = 'pending'
    UNION ALL SELECT NULL, disabled, id FROM endpoint WHERE disabled IS NOT NULL`,
    [input, ids, now.toISOString(), disableBefore.toISOString()],
  );
  return {
    moved: new Set(rows.filter((r) => r.id !== null).map((r) => r.id!)),
    disabled: rows.filter((r) => r.disabled).map((r) => ({ endpointId: r.endpointId!, reason: r.disabled! })),
  };
}
