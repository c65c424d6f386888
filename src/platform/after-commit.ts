import fp from 'fastify-plugin';

/**
 * What follows a commit, in one place. A module reports what it committed
 * (`effects.committed({ kind: 'mail.queued' })`) once its transaction is done; the EFFECTS table
 * says what each kind of change sets off, and the runners, one per effect, do it. A route or a
 * domain file never wakes a worker, purges a file or feeds a stream itself.
 *
 * The ground layer imports no module: the data each kind carries is declared by the module that
 * reports it (a `declare module` beside its code, as Fastify's decorations are), and the runners
 * are handed in, all of them required, by whoever builds the owner (app.ts for the server, the
 * admin CLI for its own process).
 */

/** What a commit can set off. */
export type Effect =
  /** Drop what the change made stale from this process's memory (the board cache, the lists that solve tickets). */
  | 'cache'
  /** Send the change to this process's open event streams (SSE). */
  | 'stream'
  /** Wake this process's notifier, which reads the activity for notifications and their mail. */
  | 'notifierWake'
  /** A ticket's card moved between lists: its ticket follows (tickets as cards). */
  | 'ticketFollowsCard'
  /** A ticket was created, changed or publicly commented: its card follows (tickets as cards). */
  | 'cardFollowsTicket'
  /** Wake this process's webhook dispatcher: deliveries are due now. */
  | 'webhookWake'
  /** Wake this process's mail worker: mail is due now. */
  | 'mailWake'
  /** Delete the files whose rows went (the attachment store's purge of "DeletedFile"). */
  | 'filePurge';

/**
 * The data each kind of change carries. The kinds the ground can describe are here; a module
 * adds its own (boards/activity/change-board.ts: 'board.activity'; tickets/ticket-changes.ts: the
 * tickets' three). Every kind needs a row in EFFECTS.
 */
export interface ChangeData {
  /** A user's name, address, picture or status changed (on every board they belong to). */
  'user.changed': { userId: number };
  /** Webhook deliveries were written (new events of a board, a ticket, a comment; redeliveries). */
  'webhook.queued': object;
  /** Mail was written to the mail outbox (an invitation, a reset, a reply, a notification batch). */
  'mail.queued': object;
  /** Rows whose files must go were deleted (an attachment, a card, a list, a board, a picture). */
  'file.deleted': object;
}

export type ChangeKind = keyof ChangeData;

/** One committed change, as a module reports it. */
export type Change<K extends ChangeKind = ChangeKind> = K extends ChangeKind ? { kind: K } & ChangeData[K] : never;

/**
 * Change → its effects, in the order they start: the one table of what follows a commit. What a
 * change makes stale in other processes, or shows on their streams, is not here: they were told
 * in the change's own transaction (a NOTIFY, boards/activity/change-board.ts), so nothing commits
 * unannounced.
 */
export const EFFECTS = {
  'board.activity': ['cache', 'stream', 'notifierWake', 'ticketFollowsCard'],
  'ticket.created': ['cardFollowsTicket'],
  'ticket.updated': ['stream', 'cardFollowsTicket'],
  'ticket.commented': ['stream', 'cardFollowsTicket'],
  'tickets.board': ['cache'],
  'user.changed': ['cache'],
  'webhook.queued': ['webhookWake'],
  'mail.queued': ['mailWake'],
  'file.deleted': ['filePurge'],
} as const satisfies { readonly [K in ChangeKind]: readonly Effect[] };

/** The kinds of change that set off an effect. */
export type KindsWith<E extends Effect> = { [K in ChangeKind]: E extends (typeof EFFECTS)[K][number] ? K : never }[ChangeKind];

/**
 * One runner per effect, each given only the kinds of change the table sends it. A runner that
 * does slow work returns its promise (the card a new ticket gets), which the change may wait for.
 */
export type EffectRunners = { [E in Effect]: (change: Change<KindsWith<E>>) => void | Promise<void> };

/** What a change reports to after its commit; every write path that has effects takes one (required). */
export interface Effects {
  /**
   * Starts the change's effects (EFFECTS), now: call it after the commit, never inside the
   * transaction. Settles once every one has finished (a change that must answer with its
   * follow-up done awaits it: a new ticket's card); never rejects.
   */
  committed(change: Change): Promise<void>;
}

/**
 * The owner of what follows a commit: starts each reported change's effects in table order. A
 * runner that throws or rejects is logged: the change is committed and answered, so its follow-up
 * must not fail it; runners queue slow work (an outbox row, a wake) rather than do it here, or
 * hand back its promise.
 */
export class AfterCommit implements Effects {
  constructor(
    private readonly runners: EffectRunners,
    private readonly log: { warn(o: object, m: string): void },
  ) {}

  committed(change: Change): Promise<void> {
    const running: Promise<void>[] = [];
    for (const effect of EFFECTS[change.kind]) {
      const failed = (error: unknown) => this.log.warn({ err: error, change: change.kind, effect }, 'an effect after a commit failed');
      try {
        const ran: unknown = (this.runners[effect] as (change: Change) => void | Promise<void>)(change);
        if (ran instanceof Promise) running.push(ran.catch(failed));
      } catch (error) {
        failed(error);
      }
    }
    return running.length === 0 ? Promise.resolve() : Promise.all(running).then(() => undefined);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What follows a commit in this process: every change reports to it (EFFECTS). */
    effects: Effects;
  }
}

/**
 * The server's owner of what follows a commit, built once from its runners, each a required
 * function (app.ts hands them in, one per effect, from the module that does it).
 */
export const afterCommitPlugin = fp<{ runners: EffectRunners }>(
  async (app, { runners }) => {
    app.decorate('effects', new AfterCommit(runners, app.log));
  },
  { name: 'after-commit' },
);
