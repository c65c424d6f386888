import { EventEmitter } from 'node:events';

/**
 * Tells this process's notification streams that a person's notifications changed (new ones,
 * some read). In-process: a stream in another process learns of it by its own periodic look.
 */
export class NotificationSignals {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  changed(userIds: Iterable<number>) {
    for (const id of new Set(userIds)) this.emitter.emit(`u:${id}`);
  }

  /** Calls fn each time the user's notifications change; returns the unsubscribe function. */
  on(userId: number, fn: () => void): () => void {
    this.emitter.on(`u:${userId}`, fn);
    return () => this.emitter.off(`u:${userId}`, fn);
  }
}
