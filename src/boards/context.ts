import type { Actor } from '../accounts/credentials/auth.js';
import type { PrismaClient } from '../platform/db.js';
import type { EventBus } from './activity/event-bus.js';
import type { Effects } from '../platform/after-commit.js';

/** What every board operation runs with: the database, the event bus, what follows its commit, and who is acting. */
export interface BoardContext {
  db: PrismaClient;
  events: EventBus;
  /** What follows the commit (platform/after-commit.ts): cache, streams, notifier, webhook and mail wake, file purge. */
  effects: Effects;
  actor: Actor;
}
