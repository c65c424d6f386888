import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import pg from 'pg';
import { type ActivityView, presentActivity } from './present-activity.js';
import type { Database } from '../../platform/db.js';

const CHANNEL = 'tb_board_events';

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
  private listener: pg.Client | null = null;
  private closed = false;
  private listenedBefore = false;

  constructor() {
    // One listener per board with open streams; boards are many.
    this.emitter.setMaxListeners(0);
  }

  publish(activity: ActivityView) {
    this.emitter.emit(`board:${activity.boardId}`, activity);
    this.notify?.(JSON.stringify({ o: this.origin, id: activity.id })).catch(() => {
      // Other processes miss this one; their clients can resume with Last-Event-ID.
    });
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
    if (!db.pool) return;
    const pool = db.pool;
    this.notify = (payload) => pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    const listen = async (): Promise<void> => {
      if (this.closed) return;
      const client = new pg.Client({ ...(pool.options as pg.ClientConfig) });
      client.on('notification', (message) => void this.receive(db, message.payload));
      client.on('error', (error) => {
        log.warn({ err: error }, 'event listener connection lost; reconnecting');
        client.end().catch(() => {});
        if (this.listener === client) this.listener = null;
        // Through attempt(), which keeps trying while the database stays down.
        setTimeout(attempt, 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
      if (this.listenedBefore) this.emitter.emit('reconnected');
      this.listenedBefore = true;
    };
    // Never holds up start-up: with the database down the app still starts and answers 503.
    const attempt = (): Promise<void> =>
      listen().catch((error: unknown) => {
        log.warn({ err: error }, 'event listener could not connect; retrying');
        if (!this.closed) setTimeout(attempt, 2000).unref();
      });
    void attempt();
  }

  private async receive(db: Database, payload: string | undefined) {
    try {
      const { o, id } = JSON.parse(payload ?? '') as { o: string; id: number };
      if (o === this.origin) return;
      const row = await db.prisma.activity.findUnique({ where: { id } });
      if (row) this.emitter.emit(`board:${row.boardId}`, presentActivity(row));
    } catch {
      // A malformed notification or a failed read: nothing to deliver.
    }
  }

  async close() {
    this.closed = true;
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
    if (app.db.kind === 'postgres') await bus.connectPostgres(app.db, app.log);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'event-bus', dependencies: ['db'] },
);
