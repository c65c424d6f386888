import type { OutboxSql } from '../platform/outbox-sql.js';

/** A delivery this process holds under a lease, with what its attempt needs. */
export interface ClaimedDelivery {
  id: number;
  eventId: string;
  round: number;
  /** The lease, as PostgreSQL wrote it (text): the fencing token every later write of this claim checks. */
  leaseUntil: string;
  body: string;
  endpointId: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | null;
  /**
   * A board webhook whose creator can no longer read the board (removed from it, blocked): not
   * sent, whatever was recorded while they could (see withholdDelivery).
   */
  withheld: boolean;
}

export interface ClaimDeliveriesOptions {
  sql: OutboxSql;
  /** At most this many deliveries in all. */
  limit: number;
  leaseSeconds: number;
  /** How many more deliveries each listed endpoint may take; 0 or less leaves it out. */
  room: Map<number, number>;
  /** How many an endpoint not in `room` may take. */
  defaultRoom: number;
}

/**
 * Claims due deliveries of enabled endpoints, oldest due first, with `FOR UPDATE SKIP LOCKED`
 * under a lease, so processes never take the same one and a crashed process's claims run out.
 * No endpoint gets more than its room: the rows beyond it are locked for this statement only.
 */
export async function claimDeliveries({ sql, limit, leaseSeconds, room, defaultRoom }: ClaimDeliveriesOptions) {
  const full: number[] = [];
  const ids: number[] = [];
  const rooms: number[] = [];
  for (const [id, n] of room) {
    if (n <= 0) full.push(id);
    else {
      ids.push(id);
      rooms.push(n);
    }
  }
  // `ORDER BY "nextAttemptAt"` alone follows the (status, "nextAttemptAt") index and stops at
  // the limit; a tie-break on id would sort every delivery due at the same instant (a backlog).
  // `id = ANY(ARRAY(…))` keeps the UPDATE on the primary key rather than a hash join over the table.
  // One row of JSON back, not a row per delivery: the client's per-row decoding cost more than the claim.
  const [row] = await sql<{ claimed: string }>(
    `
    WITH candidates AS (
      SELECT d.id, d."endpointId", d."nextAttemptAt"
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
      WHERE d.status = 'pending' AND d."nextAttemptAt" <= now() AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now())
        AND e.enabled AND d."endpointId" <> ALL($1::int[])
      ORDER BY d."nextAttemptAt"
      LIMIT $2
      FOR UPDATE OF d SKIP LOCKED
    ), ranked AS (
      SELECT c.id, c."endpointId", row_number() OVER (PARTITION BY c."endpointId" ORDER BY c."nextAttemptAt", c.id) AS n
      FROM candidates c
    ), claimed AS (
      UPDATE "WebhookDelivery" SET "leaseUntil" = clock_timestamp() + make_interval(secs => $3)
      WHERE id = ANY(ARRAY(
        SELECT r.id FROM ranked r LEFT JOIN unnest($4::int[], $5::int[]) AS room(endpoint, n) ON room.endpoint = r."endpointId"
        WHERE r.n <= COALESCE(room.n, $6)
      ))
      RETURNING id, "eventId", round, "leaseUntil", "endpointId"
    )
    SELECT COALESCE(json_agg(x ORDER BY x."endpointId", x.id), '[]')::text AS claimed FROM (
      SELECT c.id, c."eventId", c.round, c."leaseUntil", c."endpointId", ev.body,
             e.url, e.secret, e."previousSecret", e."previousSecretUntil",
             -- Board webhooks only (CASE: a workspace's endpoint never runs the subquery): is the
             -- creator still an active member? Asked at each attempt, on the claimed rows alone.
             CASE WHEN e."boardId" IS NULL THEN false ELSE NOT EXISTS (
               SELECT 1 FROM "BoardMember" m JOIN "User" u ON u.id = m."userId"
               WHERE m."boardId" = e."boardId" AND m."userId" = e."userId" AND u.status = 'active'
             ) END AS withheld
      FROM claimed c JOIN "WebhookEvent" ev ON ev.id = c."eventId" JOIN "WebhookEndpoint" e ON e.id = c."endpointId"
    ) x`,
    [full, limit, leaseSeconds, ids, rooms, defaultRoom],
  );
  return JSON.parse(row!.claimed) as ClaimedDelivery[];
}

/**
 * When the earliest waiting delivery of an enabled endpoint can next be claimed (due, and its
 * lease run out), or null; endpoints in `exclude` (this process's full ones) are left out.
 */
export async function nextClaimableAt({ sql, exclude }: { sql: OutboxSql; exclude: number[] }): Promise<number | null> {
  const [row] = await sql<{ at: Date | string | null }>(
    `
    SELECT min(GREATEST(d."nextAttemptAt", COALESCE(d."leaseUntil", d."nextAttemptAt"))) AS at
    FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
    WHERE d.status = 'pending' AND e.enabled AND d."endpointId" <> ALL($1::int[])`,
    [exclude],
  );
  return row?.at ? new Date(row.at).getTime() : null;
}

/** Gives claims back unsent, for any process to take at once; a claim that has moved on since is left alone. */
export async function releaseDeliveries({ sql, claims }: { sql: OutboxSql; claims: Pick<ClaimedDelivery, 'id' | 'leaseUntil'>[] }) {
  if (!claims.length) return;
  await sql(
    `UPDATE "WebhookDelivery" d SET "leaseUntil" = NULL
     FROM unnest($1::int[], $2::timestamptz[]) AS r(id, lease)
     WHERE d.id = r.id AND d."leaseUntil" = r.lease`,
    [claims.map((c) => c.id), claims.map((c) => c.leaseUntil)],
  );
}

/** What a withheld delivery's attempt row says. */
export const WITHHELD_ERROR = "not sent: the webhook's creator can no longer read the board";

/**
 * Ends a claimed delivery of a board webhook whose creator can no longer read the board without
 * sending it: failed, with an attempt row saying why (no request was made), so a creator who loses
 * the board gets none of its events, retries of older ones included. Under the claim's lease, as
 * every result. The endpoint's failure record is left alone: its receiver did nothing wrong.
 */
export async function withholdDelivery({ sql, delivery }: { sql: OutboxSql; delivery: Pick<ClaimedDelivery, 'id' | 'leaseUntil'> }) {
  await sql(
    `WITH moved AS (
       UPDATE "WebhookDelivery" SET status = 'failed', "leaseUntil" = NULL, "updatedAt" = now()
       WHERE id = $1 AND "leaseUntil" = $2::timestamptz
       RETURNING id
     )
     INSERT INTO "WebhookAttempt" ("deliveryId", "startedAt", "durationMs", "statusCode", error, "responseExcerpt", succeeded)
     SELECT id, now(), 0, NULL, $3, NULL, false FROM moved`,
    [delivery.id, delivery.leaseUntil, WITHHELD_ERROR],
  );
}
