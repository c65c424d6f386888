import type { Database } from '../platform/db.js';

/**
 * Events looked at per transaction: each one's locks and WAL stay small on a large backlog (a
 * batch takes tens to hundreds of milliseconds, under the statement timeout). The embedded
 * database has one connection, which every request waits for while a batch holds it: smaller.
 */
const BATCH = { postgres: 2000, embedded: 500 } as const;

/**
 * Deletes the events created more than `retentionMs` ago whose deliveries are all settled
 * (succeeded or failed), with their deliveries and attempts (ON DELETE CASCADE), a batch at a
 * time. An event with a pending delivery stays whatever its age: it is still owed to someone.
 * `stopped` is asked between batches (the server is closing). Returns how many events were deleted.
 */
export async function pruneWebhookEvents(db: Database, retentionMs: number, stopped: () => boolean = () => false): Promise<number> {
  const batchSize = BATCH[db.kind];
  let total = 0;
  // Each batch goes on from where the last one stopped, in ("createdAt", id) order: the old events
  // kept for a pending delivery are passed over once, not at every batch.
  let after: [string, string] = ['-infinity', ''];
  while (!stopped()) {
    const batch = await db.prisma.$transaction(async (tx) => {
      // Another process's prune holds some: they are left to it (or to the next prune).
      const events = await tx.$queryRawUnsafe<{ id: string; at: string }[]>(
        `SELECT id, to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM "WebhookEvent"
         WHERE "createdAt" < now() - make_interval(secs => $1::double precision / 1000) AND ("createdAt", id) > ($2::timestamptz, $3::text)
         ORDER BY "createdAt", id LIMIT ${batchSize}
         FOR UPDATE SKIP LOCKED`,
        retentionMs,
        after[0],
        after[1],
      );
      if (events.length === 0) return { looked: 0, deleted: 0, last: null };
      const ids = events.map((e) => e.id);
      // Their deliveries are locked and read as committed, not as this transaction's snapshot saw
      // them: a redelivery (failed → pending) that commits meanwhile is waited for and seen, and
      // one that comes after waits for this transaction and then finds the delivery gone.
      const owed = await tx.$queryRawUnsafe<{ eventId: string }[]>(
        `WITH locked AS (SELECT "eventId", status FROM "WebhookDelivery" WHERE "eventId" = ANY($1::text[]) FOR UPDATE)
         SELECT DISTINCT "eventId" FROM locked WHERE status = 'pending'`,
        ids,
      );
      const kept = new Set(owed.map((d) => d.eventId));
      const gone = ids.filter((id) => !kept.has(id));
      const deleted = gone.length ? await tx.$executeRawUnsafe(`DELETE FROM "WebhookEvent" WHERE id = ANY($1::text[])`, gone) : 0;
      const last = events.at(-1)!;
      return { looked: events.length, deleted, last: [last.at, last.id] as [string, string] };
    });
    total += batch.deleted;
    if (batch.looked < batchSize || !batch.last) break;
    after = batch.last;
  }
  return total;
}
