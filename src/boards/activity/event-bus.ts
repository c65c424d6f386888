import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import pg from 'pg';
import { type ActivityView, presentActivity } from './present-activity.js';
import type { Database, Tx } from '../../platform/db.js';

/** The LISTEN/NOTIFY channel; boards/sql/user-changed.sql names it too (a test holds the two equal). */
export const CHANNEL = 'tb_board_events';

/**
 * How often a listening process sends itself a ping on the channel, and how long it may go without
 * hearing one before it counts as deaf: memory is then not served (hearsAll is false). NOTIFY is
 * delivered in commit order, so a ping heard proves every change committed before it was sent
 * was heard too: a change another process commits is never served stale here for longer than
 * DEAF_AFTER_MS, even when its notification is lost on the way (a listener connection that hangs
 * without breaking, a stalled socket).
 */
export const PING_EVERY_MS = 200;
export const DEAF_AFTER_MS = 1000;

/**
 * What may have changed, for whoever keeps board state in memory (the board cache): one board
 * (every activity says so), one user's name or address (on every board they belong to), or
 * anything (a change nobody can name).
 */
export type StaleData = { boardId: number } | { userId: number } | { all: true };

/**
 * A notification on the channel: an activity (`id`, with its board `b` so receivers can drop what
 * they keep of it before reading the row; `b` is absent from older senders), stale data without
 * an activity (`s`: a user's change, sent by the database itself, boards/sql/user-changed.sql), a
 * process's ping to itself (`p`), or a module's own message (`t` its topic, `d` its small JSON data:
 * announceInTransaction).
 */
type Message = { o: string; id: number; b?: number } | { o: string; s: StaleData } | { o: string; p: number } | { o: string; t: string; d: unknown };

/**
 * Board changes, published after their transaction commits, to whoever listens on the board
 * (the SSE streams). In-process by default; `connectPostgres` makes several server processes on
 * one PostgreSQL database see each other's changes through LISTEN/NOTIFY. The notification
 * carries ids only (NOTIFY payloads are small); receivers read the activity row itself.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  /** Tells this process's own notifications apart from other processes'. */
  private readonly origin = randomUUID();
  private notify: ((payload: string) => Promise<unknown>) | null = null;
  private log: { warn(o: object, m: string): void } | null = null;
  private lastNotifyWarning = 0;
  private listener: pg.Client | null = null;
  private closed = false;
  private listenedBefore = false;
  /** False only between connectPostgres and its LISTEN, and while the listener is lost. */
  private hearing = true;
  /** Pings on their way out: close() waits for them before the pool they use is closed. */
  private readonly sending = new Set<Promise<unknown>>();
  /** When the newest of this process's own pings that came back was sent (null: not pinging: in-process only). */
  private pingHeardSentAt: number | null = null;
  private pinger: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    // One listener per board with open streams; boards are many.
    this.emitter.setMaxListeners(0);
    this.now = options.now ?? Date.now;
  }

  /**
   * Sends an activity THIS process committed to the board's streams here (the 'stream' effect of
   * platform/after-commit.ts, after the 'cache' effect dropped what it made stale). Other
   * processes were told by the change's own transaction (notifyTarget): a change that commits
   * cannot miss them, and one whose NOTIFY fails does not commit.
   */
  stream(activity: ActivityView) {
    this.emitter.emit(`board:${activity.boardId}`, activity);
  }

  /** Where failed pings are reported. */
  useLog(log: { warn(o: object, m: string): void }) {
    this.log = log;
  }

  /**
   * Tells THIS process what a change it committed made stale (an activity's board; a user's name,
   * address or picture, on every board they belong to): the 'cache' effect, change-board.ts
   * boardEffects. The other processes are not told from here, after the fact, where a NOTIFY that fails could only be logged: the
   * change's own transaction told them (boards/sql/user-changed.sql), or it did not commit.
   */
  forgetHere(stale: StaleData[]) {
    for (const s of stale) this.emitter.emit('stale', s);
  }

  /**
   * Where a change announces its activities to the other processes from inside its own transaction
   * ([channel, origin] for `pg_notify`, as activity/sql/record-activities.sql's tb_record_activities
   * does); null when no other process listens (an embedded database).
   */
  get notifyTarget(): string[] | null {
    return this.notify ? [CHANNEL, this.origin] : null;
  }

  /**
   * Announces a module's own message to the other processes, in its change's transaction, on the
   * same channel and with the same guarantee as an activity (delivered at commit, in commit order;
   * a NOTIFY that cannot be queued fails the change): the tickets' public comments and statuses,
   * for the widget streams another process holds. Data is small (ids; NOTIFY payloads stay under
   * 8000 bytes): receivers read rows themselves. Nothing is sent on an embedded database (one process).
   */
  async announceInTransaction(tx: Tx, topic: string, data: object): Promise<void> {
    if (!this.notifyTarget) return;
    await tx.$executeRaw`SELECT pg_notify(${CHANNEL}::text, ${JSON.stringify({ o: this.origin, t: topic, d: data } satisfies Message)}::text)`;
  }

  /**
   * Calls fn with the data of each message of `topic` that ANOTHER process committed
   * (announceInTransaction); this process's own changes reach their streams as effects after the
   * commit. Returns the unsubscribe function.
   */
  onAnnounced(topic: string, fn: (data: unknown) => void): () => void {
    const name = `topic:${topic}`;
    this.emitter.on(name, fn);
    return () => this.emitter.off(name, fn);
  }

  /** Calls fn with whatever may have changed, in this process or another; returns the unsubscribe function. */
  onStale(fn: (stale: StaleData) => void): () => void {
    this.emitter.on('stale', fn);
    return () => this.emitter.off('stale', fn);
  }

  /**
   * Whether every change of every process reaches this one: always in-process; on PostgreSQL while
   * the listener connection is up. State kept in memory is only good while it is true.
   */
  get hearsAll(): boolean {
    return this.hearing && (this.pingHeardSentAt === null || this.now() - this.pingHeardSentAt <= DEAF_AFTER_MS);
  }

  private send(message: Message): Promise<void> {
    if (!this.notify) return Promise.resolve();
    const sent = this.notify(JSON.stringify(message)).then(
      () => undefined,
      (error: unknown) => {
        // Only pings are sent from here (changes are announced by their own transactions): a
        // ping that fails leaves this process deaf after DEAF_AFTER_MS, so its cache stops
        // serving. Worth a warning, once in a while (a database outage fails every one).
        if (Date.now() - this.lastNotifyWarning < 10_000) return;
        this.lastNotifyWarning = Date.now();
        this.log?.warn({ err: error }, 'could not send a ping on the event channel (NOTIFY failed)');
      },
    );
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
    return sent;
  }

  /**
   * Calls fn each time the listener connection comes back after it was lost: other processes'
   * changes made meanwhile were never heard here, so whoever holds live state must catch up.
   */
  onReconnect(fn: () => void): () => void {
    this.emitter.on('reconnected', fn);
    return () => this.emitter.off('reconnected', fn);
  }

  /** Calls fn with every activity of the board from now on; returns the unsubscribe function. */
  subscribe(boardId: number, fn: (activity: ActivityView) => void): () => void {
    const name = `board:${boardId}`;
    this.emitter.on(name, fn);
    return () => this.emitter.off(name, fn);
  }

  /** Shares events with the other processes on this PostgreSQL database; reconnects when cut off. */
  async connectPostgres(db: Database, log: { warn(o: object, m: string): void }) {
    const pool = db.pool;
    if (!pool) return;
    this.log = log;
    this.notifyOnly(db);
    this.hearing = false;
    const listen = async (): Promise<void> => {
      if (this.closed) return;
      const client = new pg.Client({ ...(pool.options as pg.ClientConfig) });
      client.on('notification', (message) => void this.receive(db, message.payload));
      client.on('error', (error) => {
        log.warn({ err: error }, 'event listener connection lost; reconnecting');
        client.end().catch(() => {});
        if (this.listener === client) this.listener = null;
        this.hearing = false;
        // Through attempt(), which keeps trying while the database stays down.
        setTimeout(attempt, 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
      // Listening from now on: what commits after this is heard.
      this.pingHeardSentAt = this.now();
      this.hearing = true;
      if (this.listenedBefore) this.emitter.emit('reconnected');
      this.listenedBefore = true;
    };
    this.pinger ??= setInterval(() => {
      if (this.listener) void this.send({ o: this.origin, p: this.now() });
    }, PING_EVERY_MS).unref();
    // Never holds up start-up: with the database down the app still starts and answers 503.
    const attempt = (): Promise<void> =>
      listen().catch((error: unknown) => {
        log.warn({ err: error }, 'event listener could not connect; retrying');
        if (!this.closed) setTimeout(attempt, 2000).unref();
      });
    void attempt();
  }

  /**
   * Sends this process's changes to the other processes without listening to theirs: for a
   * process that only makes changes (the admin CLI on PostgreSQL).
   */
  notifyOnly(db: Database) {
    const pool = db.pool;
    if (pool) this.notify = (payload) => pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  private async receive(db: Database, payload: string | undefined) {
    try {
      const message = JSON.parse(payload ?? '') as Message;
      if ('p' in message) {
        if (message.o === this.origin) this.heard(message.p);
        return;
      }
      if (message.o === this.origin) return;
      if ('t' in message) {
        this.emitter.emit(`topic:${message.t}`, message.d);
        return;
      }
      if ('s' in message) {
        this.emitter.emit('stale', message.s);
        return;
      }
      // Before the row is read: whatever is kept of the board is stale from now on.
      if (typeof message.b === 'number') {
        this.emitter.emit('stale', { boardId: message.b } satisfies StaleData);
        // Nobody here follows that board: the row is read only for a stream that will send it.
        if (this.emitter.listenerCount(`board:${message.b}`) === 0) return;
      }
      const row = await db.prisma.activity.findUnique({ where: { id: message.id } });
      if (!row) return;
      if (message.b !== row.boardId) this.emitter.emit('stale', { boardId: row.boardId } satisfies StaleData);
      this.emitter.emit(`board:${row.boardId}`, presentActivity(row));
    } catch {
      // A malformed notification or a failed read: nothing to deliver.
    }
  }

  /**
   * One of this process's pings came back: every change committed before `sentAt` was heard (and
   * dropped from memory as it was). Nothing was lost while pings were late on a live connection
   * (notifications wait in order), so, unlike after a reconnect, streams are not restarted.
   */
  private heard(sentAt: number) {
    if (this.pingHeardSentAt === null || sentAt > this.pingHeardSentAt) this.pingHeardSentAt = sentAt;
  }

  async close() {
    this.closed = true;
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    await Promise.all(this.sending);
    this.notify = null;
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Board changes after commit. */
    events: EventBus;
  }
}

export const eventBusPlugin = fp<{ bus: EventBus }>(
  async (app, { bus }) => {
    app.decorate('events', bus);
    bus.useLog(app.log);
    if (app.db.kind === 'postgres') await bus.connectPostgres(app.db, app.log);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'event-bus', dependencies: ['db'] },
);
