import { hashToken } from '../../accounts/credentials/tokens.js';
import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/**
 * One click on an unsubscribe link (or a mail client's RFC 8058 POST): every kind off for the
 * token's owner. Without signing in: the token is the proof, and all it can do is this; it keeps
 * working for NOTIFY_RETENTION, and the one in a person's latest mail always (prune-notifications.ts).
 * 404 for an unknown token (a mistyped link, a pruned one, a deleted account). The address that
 * gets no more notification mail.
 */
export async function unsubscribeFromMail({ db, token }: { db: DbClient; token: string }): Promise<{ email: string }> {
  const link = await db.unsubscribeLink.findUnique({ where: { tokenHash: hashToken(token) }, select: { userId: true, user: { select: { email: true } } } });
  if (!link) {
    throw notFound(
      "token: this unsubscribe link is not known: it may be from an old mail (only the link in a person's latest notification mail is kept for good) or from an account that was deleted. Sign in to choose which notifications are mailed to you on your account page.",
    );
  }
  const off = { mailAssigned: false, mailMentioned: false, mailDue: false, mailWatched: false };
  await db.notificationSettings.upsert({ where: { userId: link.userId }, create: { userId: link.userId, ...off }, update: off });
  return { email: link.user.email };
}
