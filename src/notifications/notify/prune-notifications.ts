import type { DbClient } from '../../platform/db.js';

/**
 * NOTIFY_RETENTION: deletes notifications older than `retentionMs` that are read, that are about a
 * board their person is no longer a member of (left, removed, the board deleted: such a one can
 * never be listed or read again, and it keeps text from a board they no longer see), or that are
 * older than UNREAD_CAP retentions (someone who reads only the mail never marks anything read).
 * An unread one on a board they still belong to stays until then; one still to be mailed is never
 * deleted. Also unsubscribe links older than the retention except each person's newest, so the link
 * in their latest notification mail keeps working however long ago it came. Run with the mail
 * log's pruning (at start and hourly). How many rows of each went.
 */
export async function pruneNotifications({ db, retentionMs }: { db: DbClient; retentionMs: number }): Promise<{ notifications: number; unsubscribeLinks: number }> {
  const before = new Date(Date.now() - retentionMs);
  const unreadBefore = new Date(Date.now() - UNREAD_CAP * retentionMs);
  // mail IN (mailed, skipped): served by the (mail, createdAt) index, and never a notification still to be mailed.
  const notifications = await db.$executeRaw`
    DELETE FROM "Notification" n
    WHERE n.mail IN ('mailed', 'skipped') AND n."createdAt" < ${before}
      AND (n."readAt" IS NOT NULL OR n."createdAt" < ${unreadBefore}
        OR NOT EXISTS (SELECT 1 FROM "BoardMember" m WHERE m."boardId" = n."boardId" AND m."userId" = n."userId"))`;
  const unsubscribeLinks = await db.$executeRaw`
    DELETE FROM "UnsubscribeLink" u
    WHERE u."createdAt" < ${before}
      AND EXISTS (SELECT 1 FROM "UnsubscribeLink" n WHERE n."userId" = u."userId" AND n."createdAt" > u."createdAt")`;
  return { notifications, unsubscribeLinks };
}

/** An unread notification is kept at most this many retentions (a year with the default 90 days). */
export const UNREAD_CAP = 4;
