import type { ActivityRow } from '../boards/activity/present-activity.js';
import { presentActivity } from '../boards/activity/present-activity.js';
import type { Database } from '../platform/db.js';
import type { NotificationKind } from '../generated/prisma/client.js';
import { OutboxWaker } from '../platform/outbox-waker.js';
import type { MailOutbox } from '../mail/outbox.js';
import type { Effects } from '../platform/after-commit.js';
import { recordMail } from '../mail/record-mail.js';
import { deriveNotifications, NOTIFYING_TYPES, watchersOf } from './derive.js';
import { composeDigest } from './digest.js';
import type { NotificationSignals } from './live.js';
import { createUnsubscribeToken, mailsKind, settingsRow } from './settings.js';

/** Activities read per transaction. */
const SCAN_PAGE = 200;
/**
 * The cursor passes an activity only once it is this old: a change's transaction may commit an
 * activity with a lower id after a higher one (at most CHANGE_TRANSACTION's 15 s later); until then
 * activities above the cursor are remembered one by one (NotifiedActivity).
 */
const SETTLE_SECONDS = 120;
/**
 * The cursor passes sooner by what PostgreSQL says has ended. Each look notes the highest activity
 * id its statement's snapshot sees and the xid it is given in that statement (pg_current_xact_id:
 * above every xid handed out before, so above that of every transaction that held an unseen
 * activity then). An id the look saw the highest of is passed once a look HORIZON_SETTLE_MS later
 * has itself ended below the xmin of the current one: every transaction that held an id at most
 * that high then has ended, and what it committed was read. The wait covers the one transaction
 * an xid does not bound: one inside the INSERT that took its id, before its first write gave it
 * an xid. (Not pg_snapshot_xmax: it is the last finished xid + 1, and a running transaction can
 * hold an xid above it.) Without this, at 250 changes a second each look re-read 30,000 notified
 * activities above the cursor (16 ms of the database's time, four times a second).
 */
const HORIZON_SETTLE_MS = 5_000;
/** Horizons kept: at most one a second (looks come faster while a backlog is paged), five minutes of them; SETTLE_SECONDS covers what is older. */
const MAX_HORIZONS = 300;
/**
 * At most one look per this long when woken by this process's commits: a look is a transaction of
 * several statements whatever it finds, and a busy board commits a change every few milliseconds
 * (woken at once, the notifier cost card moves a fifth of their throughput in bench/boards.ts). A
 * burst is read in one look; a notification waits a quarter of a second at most for it.
 */
const WAKE_GAP_MS = 250;

export interface NotifierOptions {
  /** Whether this server sends mail (no batch is mailed when not). */
  mail: MailOutbox;
  /** What follows the commit of a batch's mail ('mail.queued' wakes the mail worker). */
  effects: Effects;
  signals: NotificationSignals;
  /** NOTIFY_MAIL_BATCH_SECONDS: a person's notifications are mailed together this long after the first. */
  batchSeconds: number;
  /** NOTIFY_DUE_SWEEP_SECONDS. */
  dueSweepSeconds: number;
  /** How often to look besides being woken (other processes' and the CLI's changes). */
  pollMs: number;
  /** The origin links in mail point at (PUBLIC_BASE_URL, else where this server listens). */
  origin: () => string;
  log: { warn(o: object, m: string): void };
}

type PendingRow = { id: number; kind: NotificationKind; boardId: number; cardId: number | null; text: string; createdAt: Date };

/**
 * Turns board changes into notifications and notifications into mail, durably. The activity table
 * is the source: a cursor in the database (NotifierCursor, plus NotifiedActivity for the recent
 * ones above it) says what was read, and is moved in the same transaction as the notifications it
 * writes, so a crash before the commit leaves the activities to be read again and one after it
 * writes nothing twice (one notification per person per cause: a unique key). The post-commit
 * effect 'notifierWake' (platform/after-commit.ts, wakeNotifier) only wakes it; the poll finds what other processes and the CLI did.
 * A person's pending notifications become one mail, written to the mail outbox in the same
 * transaction that marks them mailed: the outbox's guarantees (nothing lost, never twice) hold.
 */
export class Notifier {
  private readonly waker: OutboxWaker;
  private sweeper: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Database, private readonly options: NotifierOptions) {
    this.waker = new OutboxWaker({
      look: () => this.look(),
      nextDue: () => this.nextBatchAt(),
      pollMs: options.pollMs,
      onError: (error) => options.log.warn({ err: error }, 'notifier could not read changes or mail notifications; retrying'),
    });
  }

  start() {
    this.waker.start();
    const sweep = () => {
      this.sweeping = this.sweepDue().then(
        (n) => n && this.wake(),
        (error: unknown) => this.options.log.warn({ err: error }, 'due-date sweep failed; retrying at the next one'),
      );
    };
    sweep();
    this.sweeper = setInterval(sweep, this.options.dueSweepSeconds * 1000).unref();
  }

  async stop() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.waker.stop();
    await this.sweeping;
  }

  private lastLookAt = 0;

  /** A change was committed here: read it now, or WAKE_GAP_MS after the last look began. */
  wake() {
    const at = this.lastLookAt + WAKE_GAP_MS;
    if (Date.now() >= at) this.waker.wake();
    else this.waker.wakeAt(at);
  }

  private async look(): Promise<boolean> {
    this.lastLookAt = Date.now();
    while (!(await this.scan()));
    await this.mailBatches();
    return true;
  }

  /** One page of unread activities turned into notifications; true when none are left. */
  async scan(): Promise<boolean> {
    const told = new Set<number>();
    const mail = this.options.mail.enabled ? 'pending' : 'skipped';
    const done = await this.db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO "NotifierCursor" (id, "activityId") SELECT 1, COALESCE(max(id), 0) FROM "Activity" ON CONFLICT (id) DO NOTHING`;
        // One process reads at a time; the others find it locked and leave it.
        // With the highest id this statement's snapshot sees, this look's own xid, and the oldest xid still running.
        const [cursor] = await tx.$queryRaw<{ activityId: number; maxId: number; xid: string; xmin: string }[]>`
          SELECT "activityId", COALESCE((SELECT max(id) FROM "Activity"), 0) AS "maxId",
            pg_current_xact_id()::text AS xid, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
          FROM "NotifierCursor" WHERE id = 1 FOR UPDATE SKIP LOCKED`;
        if (!cursor) return true;
        const settled = this.settledHorizon(BigInt(cursor.xmin));
        this.remember({ maxId: cursor.maxId, xid: BigInt(cursor.xid), at: Date.now() });
        const rows = await tx.$queryRaw<ActivityRow[]>`
          SELECT a.id, a."boardId", a.type, a."actorUserId", a."actorKeyId", a."actorName", a."actorClient", a.data, a."createdAt"
          FROM "Activity" a
          WHERE a.id > ${cursor.activityId} AND a.type = ANY(${NOTIFYING_TYPES}::text[])
            AND NOT EXISTS (SELECT 1 FROM "NotifiedActivity" n WHERE n."activityId" = a.id)
          ORDER BY a.id LIMIT ${SCAN_PAGE}`;
        const activities = rows.map((row) => presentActivity(row));
        const watchers = await watchersOf(tx, activities);
        for (const [i, row] of rows.entries()) {
          const activity = activities[i]!;
          const candidates = await deriveNotifications(tx, activity, watchers);
          if (!candidates.length) continue;
          const cardId = (activity.data as { cardId?: number }).cardId ?? null;
          await tx.notification.createMany({
            data: candidates.map((c) => ({ userId: c.userId, key: `a:${row.id}`, kind: c.kind, boardId: row.boardId, cardId, actorName: row.actorName, text: c.text.slice(0, 1000), mail })),
            skipDuplicates: true,
          });
          for (const c of candidates) told.add(c.userId);
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
    this.options.signals.changed(told);
    return done;
  }

  private horizons: { maxId: number; xid: bigint; at: number }[] = [];

  private remember(horizon: { maxId: number; xid: bigint; at: number }) {
    const last = this.horizons.at(-1);
    if (last && horizon.at - last.at < 1000) return;
    this.horizons.push(horizon);
    if (this.horizons.length > MAX_HORIZONS) this.horizons.shift();
  }

  /**
   * The highest id the cursor may pass now (0: none): the newest look whose transaction has ended
   * below `xminNow` settles every horizon noted HORIZON_SETTLE_MS or more before it (see
   * HORIZON_SETTLE_MS). Those are dropped but the newest of them. Kept in this process only:
   * another process passes the cursor by its own looks, or by SETTLE_SECONDS.
   */
  private settledHorizon(xminNow: bigint): number {
    let ended: number | undefined;
    for (const h of this.horizons) if (h.xid < xminNow) ended = h.at;
    if (ended === undefined) return 0;
    let settled = 0;
    let used = -1;
    for (const [i, h] of this.horizons.entries()) {
      if (ended - h.at < HORIZON_SETTLE_MS) break;
      settled = Math.max(settled, h.maxId);
      used = i;
    }
    if (used > 0) this.horizons.splice(0, used);
    return settled;
  }

  /**
   * The due-date sweep: a card due within the next 24 hours tells each of its assignees once for
   * that due date (`due:<card>:<due ms>`: a sweep that runs again, here or in another process,
   * writes nothing; a new due date tells them again). Only cards on boards they are still on, not
   * archived. How many notifications were written.
   */
  async sweepDue(): Promise<number> {
    const rows = await this.db.prisma.$queryRaw<{ cardId: number; boardId: number; title: string; dueAt: Date; userId: number }[]>`
      SELECT c.id AS "cardId", c."boardId", c.title, c."dueAt", a."userId"
      FROM "Card" c
      JOIN "List" l ON l.id = c."listId" AND NOT l.archived
      JOIN "Board" b ON b.id = c."boardId" AND NOT b.archived
      JOIN "CardAssignee" a ON a."cardId" = c.id
      JOIN "BoardMember" m ON m."boardId" = c."boardId" AND m."userId" = a."userId"
      JOIN "User" u ON u.id = a."userId" AND u.status = 'active'
      WHERE NOT c.archived AND c."dueAt" > now() AND c."dueAt" <= now() + interval '1 day'`;
    if (!rows.length) return 0;
    const mail = this.options.mail.enabled ? 'pending' : 'skipped';
    const { count } = await this.db.prisma.notification.createMany({
      data: rows.map((r) => ({
        userId: r.userId,
        key: `due:${r.cardId}:${new Date(r.dueAt).getTime()}`,
        kind: 'due' as const,
        boardId: r.boardId,
        cardId: r.cardId,
        text: `“${r.title.length > 120 ? `${r.title.slice(0, 119)}…` : r.title}” is due ${formatDue(new Date(r.dueAt))}`,
        mail,
      })),
      skipDuplicates: true,
    });
    if (count) this.options.signals.changed(rows.map((r) => r.userId));
    return count;
  }

  /** When the earliest person's batch falls due, or null (no pending notification, or no mail). */
  private async nextBatchAt(): Promise<number | null> {
    if (!this.options.mail.enabled) return null;
    const [row] = await this.db.prisma.$queryRaw<{ at: Date | null }[]>`SELECT min("createdAt") AS at FROM "Notification" WHERE mail = 'pending'`;
    return row?.at ? new Date(row.at).getTime() + this.options.batchSeconds * 1000 : null;
  }

  /** Mails every person whose first pending notification is NOTIFY_MAIL_BATCH_SECONDS old: one mail each. */
  async mailBatches(): Promise<number> {
    if (!this.options.mail.enabled) return 0;
    const due = await this.db.prisma.$queryRaw<{ userId: number }[]>`
      SELECT "userId" FROM "Notification" WHERE mail = 'pending'
      GROUP BY "userId" HAVING min("createdAt") <= now() - make_interval(secs => ${this.options.batchSeconds}) LIMIT 100`;
    let mailed = 0;
    for (const { userId } of due) if (await this.mailOne(userId)) mailed++;
    if (mailed) this.options.effects.committed({ kind: 'mail.queued' });
    return mailed;
  }

  /**
   * One person's pending notifications, locked: those still wanted (an active account, still on
   * the board, that kind mailed) go in one outbox mail; all are marked in the same transaction.
   */
  private async mailOne(userId: number): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const items = await tx.$queryRaw<PendingRow[]>`
        SELECT id, kind, "boardId", "cardId", text, "createdAt" FROM "Notification"
        WHERE "userId" = ${userId} AND mail = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED`;
      if (!items.length) return false;
      // Due by the rows another process holds (SKIP LOCKED left them out), these may be new: they wait for their own batch.
      const [{ due } = { due: false }] = await tx.$queryRaw<{ due: boolean }[]>`
        SELECT min("createdAt") <= now() - make_interval(secs => ${this.options.batchSeconds}) AS due FROM "Notification" WHERE id = ANY(${items.map((n) => n.id)}::int[])`;
      if (!due) return false;
      const user = await tx.user.findUnique({ where: { id: userId }, select: { name: true, email: true, status: true } });
      const settings = await settingsRow(tx, userId);
      const boards = new Set((await tx.boardMember.findMany({ where: { userId }, select: { boardId: true } })).map((m) => m.boardId));
      const wanted = user?.status === 'active' ? items.filter((n) => boards.has(n.boardId) && mailsKind(settings, n.kind)) : [];
      if (wanted.length && user) {
        const token = await createUnsubscribeToken(tx, userId);
        const { subject, headers, ...bodies } = composeDigest({ name: user.name, items: wanted, origin: this.options.origin(), token });
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
}

/** "Sat, 28 Nov 2026, 14:00 UTC": the server knows no one's time zone. */
function formatDue(at: Date): string {
  const date = at.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}
