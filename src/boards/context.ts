import type { Actor } from '../accounts/credentials/auth.js';
import type { PrismaClient } from '../platform/db.js';
import type { EventBus } from './activity/event-bus.js';
import type { Outbox } from '../webhooks/outbox.js';

/** What every board operation runs with: the database, the event bus, the webhook outbox, and who is acting. */
export interface BoardContext {
  db: PrismaClient;
  events: EventBus;
  /** Woken after a change whose activity went to board webhooks (absent: their next poll finds it). */
  outbox?: Outbox | undefined;
  actor: Actor;
}
