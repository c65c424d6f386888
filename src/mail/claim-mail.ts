import type { OutboxSql } from '../platform/outbox-sql.js';

/** A mail this process holds under a lease, with what sending it needs. */
export interface ClaimedMail {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Extra headers, or null. */
  headers: Record<string, string> | null;
  /** Attempts made before this one. */
  attempts: number;
  /** The lease, as PostgreSQL wrote it (text): the fencing token every later write of this claim checks. */
  leaseUntil: string;
}

/**
 * Claims due mail, oldest due first, with `FOR UPDATE SKIP LOCKED` under a lease, so processes
 * never take the same one and a crashed process's claims run out and are taken again.
 */
export async function claimMail({ sql, limit, leaseSeconds }: { sql: OutboxSql; limit: number; leaseSeconds: number }): Promise<ClaimedMail[]> {
  return sql<ClaimedMail>(
    `UPDATE "MailMessage" SET "leaseUntil" = clock_timestamp() + make_interval(secs => $2)
     WHERE id = ANY(ARRAY(
       SELECT id FROM "MailMessage"
       WHERE status = 'pending' AND "nextAttemptAt" <= now() AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
       ORDER BY "nextAttemptAt" LIMIT $1
       FOR UPDATE SKIP LOCKED
     ))
     RETURNING id, recipient, subject, text, html, "messageId", headers, attempts, "leaseUntil"::text AS "leaseUntil"`,
    [limit, leaseSeconds],
  );
}

/** When the earliest waiting mail can next be claimed (due, and its lease run out), or null. */
export async function nextMailAt({ sql }: { sql: OutboxSql }): Promise<number | null> {
  const [row] = await sql<{ at: Date | string | null }>(
    `SELECT min(GREATEST("nextAttemptAt", COALESCE("leaseUntil", "nextAttemptAt"))) AS at FROM "MailMessage" WHERE status = 'pending'`,
    [],
  );
  return row?.at ? new Date(row.at).getTime() : null;
}

/** How one attempt ended, as written: sent, to be retried at `retryAt`, or failed for good. */
export type MailResult = { status: 'sent' } | { status: 'pending'; error: string; retryAt: Date } | { status: 'failed'; error: string };

/**
 * Writes an attempt's result under the claim's lease (a claim that ran out and was taken by
 * another process is left to it). A settled mail loses its bodies: they hold working links.
 * Whether the row moved.
 */
export async function recordMailResult({ sql, mail, result }: { sql: OutboxSql; mail: Pick<ClaimedMail, 'id' | 'leaseUntil'>; result: MailResult }) {
  const settled = result.status !== 'pending';
  const rows = await sql<{ id: number }>(
    `UPDATE "MailMessage" SET
       status = $3::"MailStatus", attempts = attempts + 1, "leaseUntil" = NULL, "updatedAt" = now(),
       "lastError" = $4, "nextAttemptAt" = COALESCE($5::timestamptz, "nextAttemptAt"),
       "sentAt" = CASE WHEN $3 = 'sent' THEN now() ELSE "sentAt" END,
       text = CASE WHEN $6 THEN NULL ELSE text END, html = CASE WHEN $6 THEN NULL ELSE html END
     WHERE id = $1 AND "leaseUntil" = $2::timestamptz
     RETURNING id`,
    [mail.id, mail.leaseUntil, result.status, 'error' in result ? result.error.slice(0, 1000) : null, result.status === 'pending' ? result.retryAt : null, settled],
  );
  return rows.length > 0;
}
