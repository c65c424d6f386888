import type { DbClient } from '../platform/db.js';

/**
 * NOTIFY_RETENTION: deletes read notifications older than `retentionMs` (an unread one stays
 * until it is read: the unread count never drops by itself; one still to be mailed is never
 * deleted), and unsubscribe links older than it except each person's newest, so the link in
 * their latest notification mail keeps working however long ago it came. Run with the mail
 * log's pruning (at start and hourly). How many rows of each went.
 */
export async function pruneNotifications({ db, retentionMs }: { db: DbClient; retentionMs: number }): Promise<{ notifications: number; unsubscribeLinks: number }> {
  const before = new Date(Date.now() - retentionMs);
  // mail IN (mailed, skipped): served by the (mail, createdAt) index, and never a notification still to be mailed.
  const { count: notifications } = await db.notification.deleteMany({ where: { mail: { in: ['mailed', 'skipped'] }, createdAt: { lt: before }, readAt: { not: null } } });
  const unsubscribeLinks = await db.$executeRaw`
    DELETE FROM "UnsubscribeLink" u
    WHERE u."createdAt" < ${before}
      AND EXISTS (SELECT 1 FROM "UnsubscribeLink" n WHERE n."userId" = u."userId" AND n."createdAt" > u."createdAt")`;
  return { notifications, unsubscribeLinks };
}
