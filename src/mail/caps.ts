import type { DbClient } from '../platform/db.js';
import { AppError } from '../platform/errors.js';

/** The window of the per-recipient caps: a day. */
export const MAIL_CAP_WINDOW_MS = 86_400_000;

/**
 * At most this many mails of one kind to one address a day, resends and re-invites included, so
 * nobody can make the server flood an address they do not own. null: the kind is uncapped because something else bounds it (a future reply to a
 * customer's own ticket is bounded by that conversation). A kind not listed gets DEFAULT_CAP.
 */
export const MAIL_CAPS: Readonly<Record<string, number | null>> = {
  'password-reset': 10,
  invitation: 10,
  'email-change': 10,
  'email-changed': 10,
  notifications: 10,
  'ticket-reply': null,
};
const DEFAULT_CAP = 10;

export const capOf = (kind: string): number | null => (kind in MAIL_CAPS ? MAIL_CAPS[kind]! : DEFAULT_CAP);

/**
 * Whether one more mail of `kind` may go to `to` now, counted from the outbox (so every process
 * sees the same count), and if not, in how many seconds it may. Takes a transaction-scoped lock
 * on kind and address first: parallel requests cannot each take the last place. Call inside the
 * transaction that records the mail.
 */
export async function mailAllowance(tx: DbClient, { kind, to }: { kind: string; to: string }): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const cap = capOf(kind);
  if (cap === null) return { allowed: true };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('mail-cap'), hashtext(${`${kind} ${to}`}))`;
  const since = new Date(Date.now() - MAIL_CAP_WINDOW_MS);
  const recent = await tx.mailMessage.findMany({ where: { kind, recipient: to, createdAt: { gt: since } }, select: { createdAt: true }, orderBy: { createdAt: 'desc' }, take: cap });
  if (recent.length < cap) return { allowed: true };
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + MAIL_CAP_WINDOW_MS - Date.now()) / 1000)) };
}

/** A refusal that says why and when to try again (429 with Retry-After), for routes whose caller may know. */
export function mailCapReached(what: string, perWindow: string, retryAfterSeconds: number): AppError {
  return new AppError(429, 'rate_limited', `${what}: at most ${perWindow}; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`, { 'retry-after': String(retryAfterSeconds) });
}

/**
 * 429 (with Retry-After) when `to` already had its day's mails of `kind`: for flows whose caller is
 * signed in and may be told (an invitation, its resend, an e-mail change).
 */
export async function requireMailAllowance(tx: DbClient, { kind, to }: { kind: string; to: string }): Promise<void> {
  const allowance = await mailAllowance(tx, { kind, to });
  if (!allowance.allowed) throw mailCapReached(`email: ${to}`, `${capOf(kind)} mails of this kind a day to one address`, allowance.retryAfterSeconds);
}
