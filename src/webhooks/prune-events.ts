import type { OutboxSql } from './outbox-sql.js';

/**
 * Events looked at per statement: each statement's locks and WAL stay small on a large backlog
 * (a batch takes tens of milliseconds, far under the statement timeout).
 */
const BATCH = 2000;

/**
 * Deletes the events created more than `retentionMs` ago whose deliveries are all settled
 * (succeeded or failed), with their deliveries and attempts (ON DELETE CASCADE), a batch at a
 * time. An event with a pending delivery stays whatever its age: it is still owed to someone.
 * Returns how many events were deleted.
 */
export async function pruneWebhookEvents(sql: OutboxSql, retentionMs: number): Promise<number> {
  let total = 0;
  // Each batch goes on from where the last one stopped, in ("createdAt", id) order: the old events
  // kept for a pending delivery are passed over once, not at every batch.
  let after: [string, string] = ['-infinity', ''];
  for (;;) {
    // `FOR UPDATE SKIP LOCKED`: an event a redelivery or another process's prune holds is left
    // for the next prune rather than waited for.
    const [row] = await sql<{ deleted: number; scanned: number; lastAt: string | null; lastId: string | null }>(
      `
      WITH scanned AS (
        SELECT e.id, e."createdAt" FROM "WebhookEvent" e
        WHERE e."createdAt" < now() - make_interval(secs => $1::double precision / 1000)
          AND (e."createdAt", e.id) > ($2::timestamptz, $3::text)
        ORDER BY e."createdAt", e.id
        LIMIT ${BATCH}
      ), old AS (
        SELECT e.id FROM "WebhookEvent" e
        WHERE e.id IN (SELECT id FROM scanned)
          AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e.id AND d.status = 'pending')
        FOR UPDATE SKIP LOCKED
      ), gone AS (
        DELETE FROM "WebhookEvent" WHERE id IN (SELECT id FROM old) RETURNING 1
      ), last AS (
        SELECT "createdAt", id FROM scanned ORDER BY "createdAt" DESC, id DESC LIMIT 1
      )
      SELECT (SELECT count(*)::int FROM gone) AS deleted, (SELECT count(*)::int FROM scanned) AS scanned,
        (SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM last) AS "lastAt", (SELECT id FROM last) AS "lastId"`,
      [retentionMs, after[0], after[1]],
    );
    total += row?.deleted ?? 0;
    if (!row || row.scanned < BATCH || row.lastAt === null || row.lastId === null) return total;
    after = [row.lastAt, row.lastId];
  }
}
