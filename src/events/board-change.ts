import type { Prisma } from '../generated/prisma/client.js';
import type { Actor } from '../platform/auth.js';
import type { PrismaClient } from '../platform/db.js';
import type { EventBus } from '../platform/event-bus.js';
import { type ActivityView, presentActivity } from './present-activity.js';

export type Tx = Prisma.TransactionClient;

export interface ActivityInput {
  boardId: number;
  type: string;
  data: Record<string, unknown>;
  /** Attribute this activity to someone other than the change's actor (a user joining by invitation). */
  actor?: { id: number; name: string };
}

export type RecordActivity = (input: ActivityInput) => Promise<ActivityView>;

/** Who a change is attributed to; null actor = an operator through the admin CLI. */
function actorColumns(actor: Actor | null, override?: { id: number; name: string }) {
  if (override) return { actorUserId: override.id, actorKeyId: null, actorName: override.name };
  return actor
    ? { actorUserId: actor.userId, actorKeyId: actor.keyId, actorName: actor.name }
    : { actorUserId: null, actorKeyId: null, actorName: 'administrator' };
}

/**
 * Runs a change in one transaction with an explicit `record(…)` for each activity it makes; the
 * activities are published on the bus only after the commit, so no stream ever announces a
 * change that rolled back.
 */
export async function changeBoard<T>(
  options: { db: PrismaClient; events?: EventBus | undefined; actor: Actor | null },
  fn: (tx: Tx, record: RecordActivity) => Promise<T>,
): Promise<T> {
  const recorded: ActivityView[] = [];
  const result = await options.db.$transaction(
    async (tx) =>
      fn(tx, async ({ actor, ...input }) => {
        const row = await tx.activity.create({
          data: { ...input, data: input.data as Prisma.InputJsonValue, ...actorColumns(options.actor, actor) },
        });
        const view = presentActivity(row);
        recorded.push(view);
        return view;
      }),
    { timeout: 15_000, maxWait: 10_000 },
  );
  for (const activity of recorded) options.events?.publish(activity);
  return result;
}
