import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import type { ActivityView } from '../events/present-activity.js';

/**
 * Board changes, published after their transaction commits, to whoever listens on the board
 * (the SSE streams). In-process; the live-events issue adds PostgreSQL LISTEN/NOTIFY so that
 * several processes on one database see each other's changes.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per board with open streams; boards are many.
    this.emitter.setMaxListeners(0);
  }

  publish(activity: ActivityView) {
    this.emitter.emit(`board:${activity.boardId}`, activity);
  }

  /** Calls fn with every activity of the board from now on; returns the unsubscribe function. */
  subscribe(boardId: number, fn: (activity: ActivityView) => void): () => void {
    const name = `board:${boardId}`;
    this.emitter.on(name, fn);
    return () => this.emitter.off(name, fn);
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
  },
  { name: 'event-bus' },
);
