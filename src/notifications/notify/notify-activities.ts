import type { ActivityRow } from '../../boards/activity/present-activity.js';
import { presentActivity } from '../../boards/activity/present-activity.js';
import type { PrismaClient } from '../../platform/db.js';
import { chooseRecipients, NOTIFYING_TYPES } from './choose-recipients.js';
import type { CursorHorizons } from './cursor-horizons.js';
import { findWatchers } from './find-watchers.js';

/** Activities read per transaction. */
const SCAN_PAGE = 200;
/**
 * The cursor passes an activity only once it is this old: a change's transaction may commit an
 * activity with a lower id after a higher one (at most CHANGE_TRANSACTION's 15 s later); until then
 * activities above the cursor are remembered one by one (NotifiedActivity).
 */
const SETTLE_SECONDS = 120;

/**
 * One page of unread board activities turned into notifications (chooseRecipients says who is
 * told of what), durably: a cursor in the database (NotifierCursor, plus NotifiedActivity for the
 * recent ones above it) says what was read, and is moved in the same transaction as the
 * notifications it writes, so a crash before the commit leaves the activities to be read again and
 * one after it writes nothing twice (one notification per person per cause: a unique key). One
 * process reads at a time. `done`: none are left; `told`: whose notifications changed.
 * `mailEnabled`: whether the new notifications wait for a mail (else they are marked skipped).
 */
export async function notifyActivities({ db, horizons, mailEnabled }: { db: PrismaClient; horizons: CursorHorizons; mailEnabled: boolean }): Promise<{ done: boolean; told: Set<number> }> {
  const told = new Set<number>();
  const mail = mailEnabled ? 'pending' : 'skipped';
  const done = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO "NotifierCursor" (id, "activityId") SELECT 1, COALESCE(max(id), 0) FROM "Activity" ON CONFLICT (id) DO NOTHING`;
      // One process reads at a time; the others find it locked and leave it.
      // With the highest id this statement's snapshot sees, this look's own xid, and the oldest xid still running.
      const [cursor] = await tx.$queryRaw<{ activityId: number; maxId: number; xid: string; xmin: string }[]>`
        SELECT "activityId", COALESCE((SELECT max(id) FROM "Activity"), 0) AS "maxId",
          pg_current_xact_id()::text AS xid, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
        FROM "NotifierCursor" WHERE id = 1 FOR UPDATE SKIP LOCKED`;
      if (!cursor) return true;
      const settled = horizons.settled(BigInt(cursor.xmin));
      horizons.remember({ maxId: cursor.maxId, xid: BigInt(cursor.xid), at: Date.now() });
      const rows = await tx.$queryRaw<ActivityRow[]>`
        SELECT a.id, a."boardId", a.type, a."actorUserId", a."actorKeyId", a."actorName", a."actorClient", a.data, a."createdAt"
        FROM "Activity" a
        WHERE a.id > ${cursor.activityId} AND a.type = ANY(${NOTIFYING_TYPES}::text[])
          AND NOT EXISTS (SELECT 1 FROM "NotifiedActivity" n WHERE n."activityId" = a.id)
        ORDER BY a.id LIMIT ${SCAN_PAGE}`;
      const activities = rows.map((row) => presentActivity(row));
      const watchers = await findWatchers({ db: tx, activities });
      for (const [i, row] of rows.entries()) {
        const activity = activities[i]!;
        const recipients = await chooseRecipients({ db: tx, activity, watchers });
        if (!recipients.length) continue;
        const cardId = (activity.data as { cardId?: number }).cardId ?? null;
        await tx.notification.createMany({
          data: recipients.map((c) => ({ userId: c.userId, key: `a:${row.id}`, kind: c.kind, boardId: row.boardId, cardId, actorName: row.actorName, text: c.text.slice(0, 1000), mail })),
          skipDuplicates: true,
        });
        for (const c of recipients) told.add(c.userId);
      }
      if (rows.length) await tx.notifiedActivity.createMany({ data: rows.map((r) => ({ activityId: r.id })), skipDuplicates: true });
      if (rows.length === SCAN_PAGE) return false;
      const [moved] = await tx.$queryRaw<{ activityId: number }[]>`
        UPDATE "NotifierCursor" SET "activityId" = GREATEST("activityId", ${settled}::int, COALESCE(
          (SELECT max(id) FROM "Activity" WHERE id > ${cursor.activityId} AND "createdAt" < now() - make_interval(secs => ${SETTLE_SECONDS})), 0))
        WHERE id = 1 RETURNING "activityId"`;
      if (moved && moved.activityId > cursor.activityId) await tx.$executeRaw`DELETE FROM "NotifiedActivity" WHERE "activityId" <= ${moved.activityId}`;
      return true;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  return { done, told };
}
