import type { DbClient } from '../platform/db.js';
import { MAIL_CAP_WINDOW_MS } from './caps.js';

/** How often each process prunes the delivery log (and once at start). */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * MAIL_RETENTION: deletes sent mail older than `retentionMs` from the outbox (the delivery log).
 * Pending mail is never deleted (it is still to go), and failed mail is kept: it says why someone
 * got nothing. Bodies are already gone once a mail is settled. How many rows went.
 */
export async function pruneSentMail({ db, retentionMs }: { db: DbClient; retentionMs: number }): Promise<number> {
  // Kept at least a day whatever MAIL_RETENTION says: the per-address caps count the last day's mail (MAIL_CAPS).
  const keepMs = Math.max(retentionMs, MAIL_CAP_WINDOW_MS);
  const { count } = await db.mailMessage.deleteMany({ where: { status: 'sent', sentAt: { lt: new Date(Date.now() - keepMs) } } });
  return count;
}
