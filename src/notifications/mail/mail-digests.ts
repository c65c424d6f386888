import type { PrismaClient } from '../../platform/db.js';
import type { NotificationKind } from '../../generated/prisma/client.js';
import { recordMail } from '../../mail/record-mail.js';
import { reachableBoardIds } from '../../boards/access.js';
import { composeDigest } from './compose-digest.js';
import { createUnsubscribeToken } from './create-unsubscribe-token.js';
import { loadMailSettings, mailsKind } from './load-mail-settings.js';

type PendingRow = { id: number; kind: NotificationKind; boardId: number; cardId: number | null; text: string; createdAt: Date };

/**
 * When a digest is mailed: a person's pending notifications go in one mail once the first of them
 * is `batchSeconds` (NOTIFY_MAIL_BATCH_SECONDS) old, each person's written to the mail outbox in the
 * same transaction that marks them mailed, so the outbox's guarantees (nothing lost, never twice)
 * hold. Up to 100 people per call; how many mails were written. `origin`: where the mail's links
 * point (PUBLIC_BASE_URL, else where this server listens), read when a mail is made.
 */
export async function mailDigests({ db, batchSeconds, origin }: { db: PrismaClient; batchSeconds: number; origin: () => string }): Promise<number> {
  const due = await db.$queryRaw<{ userId: number }[]>`
    SELECT "userId" FROM "Notification" WHERE mail = 'pending'
    GROUP BY "userId" HAVING min("createdAt") <= now() - make_interval(secs => ${batchSeconds}) LIMIT 100`;
  let mailed = 0;
  for (const { userId } of due) if (await mailDigest({ db, userId, batchSeconds, origin })) mailed++;
  return mailed;
}

/** When the earliest person's digest falls due (ms since the epoch), or null (no pending notification). */
export async function nextDigestAt({ db, batchSeconds }: { db: PrismaClient; batchSeconds: number }): Promise<number | null> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`SELECT min("createdAt") AS at FROM "Notification" WHERE mail = 'pending'`;
  return row?.at ? new Date(row.at).getTime() + batchSeconds * 1000 : null;
}

/**
 * One person's pending notifications, locked: those still wanted (an active account, still on
 * the board, that kind mailed) go in one outbox mail; all are marked in the same transaction.
 */
async function mailDigest({ db, userId, batchSeconds, origin }: { db: PrismaClient; userId: number; batchSeconds: number; origin: () => string }): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const items = await tx.$queryRaw<PendingRow[]>`
      SELECT id, kind, "boardId", "cardId", text, "createdAt" FROM "Notification"
      WHERE "userId" = ${userId} AND mail = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED`;
    if (!items.length) return false;
    // Due by the rows another process holds (SKIP LOCKED left them out), these may be new: they wait for their own batch.
    const [{ due } = { due: false }] = await tx.$queryRaw<{ due: boolean }[]>`
      SELECT min("createdAt") <= now() - make_interval(secs => ${batchSeconds}) AS due FROM "Notification" WHERE id = ANY(${items.map((n) => n.id)}::int[])`;
    if (!due) return false;
    const user = await tx.user.findUnique({ where: { id: userId }, select: { name: true, email: true, status: true } });
    const settings = await loadMailSettings({ db: tx, userId });
    // The boards the person reaches now (a mail has no key: every board they belong to).
    const boards = new Set(await reachableBoardIds(tx, { userId, boardIds: null }));
    const wanted = user?.status === 'active' ? items.filter((n) => boards.has(n.boardId) && mailsKind(settings, n.kind)) : [];
    if (wanted.length && user) {
      const token = await createUnsubscribeToken({ db: tx, userId });
      const { subject, headers, ...bodies } = composeDigest({ name: user.name, items: wanted, origin: origin(), token });
      // Past the day's cap of digests to this address (MAIL_CAPS), the batch is not mailed: it stays in the app.
      const recorded = await recordMail(tx, { key: `notifications:${userId}:${items[0]!.id}`, kind: 'notifications', to: user.email, subject, headers, ...bodies });
      if (!recorded && !(await tx.mailMessage.count({ where: { key: `notifications:${userId}:${items[0]!.id}` } }))) wanted.length = 0;
    }
    const wantedIds = wanted.map((n) => n.id);
    await tx.notification.updateMany({ where: { id: { in: wantedIds } }, data: { mail: 'mailed' } });
    await tx.notification.updateMany({ where: { id: { in: items.map((n) => n.id).filter((id) => !wantedIds.includes(id)) } }, data: { mail: 'skipped' } });
    return wanted.length > 0;
  });
}
