import type { Actor } from '../../accounts/credentials/auth.js';
import type { UserChanged } from '../../accounts/users/user-changed.js';
import type { PrismaClient, Tx } from '../../platform/db.js';
import type { Change, EffectRunners, Effects } from '../../platform/after-commit.js';
import type { EventBus, StaleData } from './event-bus.js';
import { z } from 'zod';
import { changeWithOutbox, type RecordWebhookEvent } from '../../webhooks/outbox.js';
import { isPostgresError } from '../../platform/errors.js';
import { activity, type ActivityRow, type ActivityView, presentActivity } from './present-activity.js';

declare module '../../platform/after-commit.js' {
  interface ChangeData {
    /** One activity this process committed on a board (published once per activity, in order). */
    'board.activity': { activity: ActivityView };
  }
}

/**
 * One activity to record: a type of src/boards/activity/activity-types.ts with that type's data, so a
 * record call with an unknown type or data of another shape does not compile.
 */
export type ActivityInput = import('./activity-types.js').TypedActivity & {
  boardId: number;
  /** Attribute this activity to someone other than the change's actor (a user joining by invitation). */
  actor?: { id: number; name: string };
};

export type RecordActivity = (input: ActivityInput) => Promise<ActivityView>;

/** Who a change is attributed to; null actor = an operator through the admin CLI. */
export function actorColumns(actor: Actor | null, override?: { id: number; name: string }) {
  if (override) return { actorUserId: override.id, actorKeyId: null, actorName: override.name, actorClient: null };
  return actor
    ? { actorUserId: actor.userId, actorKeyId: actor.keyId, actorName: actor.name, actorClient: actor.client?.slice(0, 200) ?? null }
    : { actorUserId: null, actorKeyId: null, actorName: 'administrator', actorClient: null };
}

/**
 * The activity exactly as GET /boards/{id}/activity sends it: encoded through the response's own
 * schema, as the route's serializer does. (Should the schema ever refuse an activity, that GET
 * would fail on it too; the event then carries the activity as recorded rather than fail the change.)
 */
function asPresented(view: ActivityView): object {
  const encoded = z.safeEncode(activity, view);
  return encoded.success ? encoded.data : view;
}

/** An Activity row as the INSERT returns it, and whether the board has any webhook. */
export type InsertedActivity = ActivityRow & { hooked: boolean };

/**
 * Event → what it invalidates in memory: what the 'cache' effect of platform/after-commit.ts's
 * EFFECTS drops here (boardEffects). Every board activity makes its board stale (the board cache's
 * entry, which also holds the members and their roles, so member.removed and member.role_changed
 * need nothing more); a move to another board is recorded on both boards, so both go. A change to a
 * user (name, address, picture) has no activity and makes every board they belong to stale.
 *
 * How the other processes hear of it, in the change's own transaction either way (a NOTIFY that
 * cannot be queued fails the commit, so nothing is committed unannounced): an activity by
 * tb_record_activities (sql/record-activities.sql); a user's change by the trigger in
 * boards/sql/user-changed.sql, whoever wrote the row.
 */
export const INVALIDATES = {
  activity: (activity: ActivityView): StaleData[] => [{ boardId: activity.boardId }],
  userChanged: (userId: number): StaleData[] => [{ userId }],
} as const;

/** Everything a board change is run with: none of it optional, so no write path can forget a step. */
export interface ChangeOptions {
  db: PrismaClient;
  /** Announces the change to the other processes, in its transaction. */
  events: EventBus;
  /** What follows the commit (this process's cache, streams, notifier, dispatcher): platform/after-commit.ts. */
  effects: Effects;
  actor: Actor | null;
  /** The transaction's bounds, for a change that is long by nature (a board import); default CHANGE_TRANSACTION. */
  transaction?: { timeout: number; maxWait: number } | undefined;
}

/** An activity as tb_record_activities answers it (JSON: its time is a string). */
export type RecordedActivity = Omit<InsertedActivity, 'createdAt'> & { createdAt: string };

/**
 * Records one activity in the change's transaction with tb_record_activities
 * (sql/record-activities.sql, which the card statements call too): its row, whether its board has
 * webhooks, and its NOTIFY to the other processes (delivered at commit; a NOTIFY that cannot be
 * queued fails the commit, so no other process serves from memory what a committed change changed).
 */
async function recordActivity(tx: Tx, events: EventBus, input: Omit<ActivityInput, 'actor'>, who: ReturnType<typeof actorColumns>): Promise<InsertedActivity> {
  const [row] = await tx.$queryRaw<{ activities: RecordedActivity[] }[]>`
    SELECT tb_record_activities(${[input.boardId]}::int[], ${input.type}::text, ${JSON.stringify(input.data)}::jsonb, ${JSON.stringify(who)}::jsonb,
      ${new Date()}::timestamptz, ${events.notifyTarget}::text[], true) AS activities`;
  const recorded = row!.activities[0]!;
  return { ...recorded, createdAt: new Date(recorded.createdAt) };
}

/**
 * The one step after a board change commits: each activity is reported as 'board.activity', whose
 * effects (platform/after-commit.ts EFFECTS) drop what it invalidates, feed this process's
 * streams and wake the follow-ups. The activity row, the webhook outbox row and the NOTIFY were
 * written in the transaction.
 */
function afterCommit(effects: Effects, recorded: ActivityView[]) {
  for (const activity of recorded) effects.committed({ kind: 'board.activity', activity });
}

/**
 * The one step after a user's name, address or picture changed: accounts/ calls it as its
 * UserChanged (app.ts, the admin CLI and the avatar routes hand it in; required there, so no
 * write path can forget it). It reports 'user.changed', whose 'cache' effect drops what the change
 * invalidates (INVALIDATES.userChanged) in this process at once, so its next read shows the change;
 * the other processes were told by the change's own commit (boards/sql/user-changed.sql), not from
 * here after it, where a NOTIFY that failed could only be logged while they kept serving the old name.
 */
export function afterUserChange(effects: Effects): UserChanged {
  return async (userId) => effects.committed({ kind: 'user.changed', userId });
}

/**
 * The boards' runners of the after-commit effects: 'cache' drops what a change invalidates
 * (INVALIDATES) from this process's memory, 'stream' sends an activity to this process's open
 * board streams (their part of those effects: the server's runners hand other kinds, a ticket's, to
 * their module). Other processes heard of the change from its own transaction.
 */
export function boardEffects(events: EventBus): { cache: (change: Change<'board.activity' | 'user.changed'>) => void; stream: (change: Change<'board.activity'>) => void } {
  return {
    cache: (change) =>
      events.forgetHere(change.kind === 'board.activity' ? INVALIDATES.activity(change.activity) : INVALIDATES.userChanged(change.userId)),
    stream: (change) => events.stream(change.activity),
  };
}

/** A board change's transaction: long enough for a change that waits on its boards' locks. */
const CHANGE_TRANSACTION = { timeout: 15_000, maxWait: 10_000 };

/** The recorded activity as presented, put in the webhook outbox (in the change's transaction) when its board has webhooks. */
async function announce(row: InsertedActivity, recordWebhookEvent: RecordWebhookEvent): Promise<ActivityView> {
  const view = presentActivity(row);
  if (row.hooked) await recordWebhookEvent({ boardId: view.boardId, type: view.type, data: asPresented(view), at: row.createdAt });
  return view;
}

/**
 * Runs a change in one transaction with an explicit `record(…)` for each activity it makes; the
 * activities are published on the bus only after the commit, so no stream ever announces a
 * change that rolled back.
 *
 * Each activity is also a board webhook event, put in the webhook outbox in the same transaction
 * (the event is `{type, timestamp, data}`, data the activity as GET /boards/{id}/activity presents
 * it). The hot path pays nothing for it on boards without webhooks: recording the activity
 * itself says whether the board has any (an index probe in the same statement), and only then is
 * the outbox written, by a second statement. The dispatcher is woken after the commit
 * (changeWithOutbox, as for every change that announces webhooks).
 */
export async function changeBoard<T>(options: ChangeOptions, fn: (tx: Tx, record: RecordActivity) => Promise<T>): Promise<T> {
  let recorded: ActivityView[] = [];
  const result = await changeWithOutbox(
    { db: options.db, effects: options.effects, transaction: options.transaction ?? CHANGE_TRANSACTION },
    async (tx, recordWebhookEvent) => {
      recorded = [];
      return fn(tx, async ({ actor, ...input }) => {
        const row = await recordActivity(tx, options.events, input, actorColumns(options.actor, actor));
        const view = await announce(row, recordWebhookEvent);
        recorded.push(view);
        return view;
      });
    },
  );
  afterCommit(options.effects, recorded);
  return result;
}

/**
 * What a change made in one database statement answers: its result and the activities it
 * recorded, or that a board it touches has webhooks (nothing written), whose outbox rows must be
 * written in the same transaction as the change.
 */
export type OneStatementOutcome<T> = { hooked: true } | { result: T; activities: InsertedActivity[] };

/**
 * A change made by one database function that records its own activities, and announces them to
 * the other processes (sql/record-activities.sql tb_record_activities, with events.notifyTarget): one
 * round trip, outside any transaction (the statement is one). When it answers `hooked`, or rolls
 * back with TBHK1 (a webhook was added while it waited for its locks), it runs again inside a
 * transaction, which also writes the webhook outbox, as changeBoard does. The
 * activities are published after the commit, as changeBoard's are.
 */
export async function changeBoardInOneStatement<T>(
  options: Omit<ChangeOptions, 'actor'>,
  call: (db: Tx | PrismaClient, inTransaction: boolean) => Promise<OneStatementOutcome<T>>,
): Promise<T> {
  let outcome: OneStatementOutcome<T>;
  try {
    outcome = await call(options.db, false);
  } catch (error) {
    // A webhook added while the statement waited for its locks: it rolled back (SQLSTATE TBHK1).
    if (!isPostgresError(error, 'TBHK1')) throw error;
    outcome = { hooked: true };
  }
  let recorded: ActivityView[] = [];
  if ('hooked' in outcome) {
    outcome = await changeWithOutbox({ db: options.db, effects: options.effects, transaction: CHANGE_TRANSACTION }, async (tx, recordWebhookEvent) => {
      const inside = await call(tx, true);
      if ('hooked' in inside) throw new Error('a change inside its transaction answered hooked');
      recorded = [];
      for (const row of inside.activities) recorded.push(await announce(row, recordWebhookEvent));
      return inside;
    });
  } else {
    recorded = outcome.activities.map(presentActivity);
  }
  afterCommit(options.effects, recorded);
  return outcome.result;
}
