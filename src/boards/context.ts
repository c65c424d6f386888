import type { Actor } from '../accounts/auth.js';
import type { PrismaClient } from '../platform/db.js';
import type { EventBus } from './activity/event-bus.js';

/** What every board operation runs with: the database, the event bus, and who is acting. */
export interface BoardContext {
  db: PrismaClient;
  events: EventBus;
  actor: Actor;
}
