import type { ActivityData, ActivityType, TypedActivity } from './activity/activity-types.js';
import { changeBoard, type RecordActivity } from './activity/change-board.js';
import type { Tx } from '../platform/db.js';
import { requireCard } from './access.js';
import { fullCard, summaryOf } from './json/card-json.js';
import type { BoardContext } from './context.js';
import { lockCard } from './lock-card.js';
import { authorize, type BoardAction } from './policy.js';
import type { CardRow } from './rows.js';
import { RETRY, withRetry } from './retry.js';
import type { CardSummaryView, CardView } from './schemas.js';

/** The activity types whose data is the card's id, then the part's own data, then the card's summary. */
type CardActivityType = { [K in ActivityType]: ActivityData<K> extends { cardId: number; card: CardSummaryView } ? K : never }[ActivityType];

/** A card part's activity: one of those types, with its data but for the `cardId` and `card` that changeCardParts adds. */
export type CardPartActivity = { [K in CardActivityType]: { type: K; data: Omit<ActivityData<K>, 'cardId' | 'card'> } }[CardActivityType];

/** What a change to a card's parts did: an activity to record (its `cardId` and `card` are added), or nothing. */
export interface CardPartChange<T> {
  activity: CardPartActivity | null;
  result: T;
}

/** The part's activity with the card's id first and its summary last, as every card activity carries them. */
function withCard(activity: CardPartActivity, cardId: number, card: CardSummaryView): TypedActivity {
  // Each CardPartActivity type's data is that type's data less cardId and card: adding them back
  // makes that type's data, which TypeScript cannot follow through the union.
  return { type: activity.type, data: { cardId, ...activity.data, card } } as TypedActivity;
}

/**
 * A change to something on a card (labels, assignees, values, checklists, comments, attachments):
 * the card is resolved with the actor's role (404), `action` authorised (403), then the card row
 * is locked, which serialises every change to the card and its parts. When `fn` changed
 * something, the card's version grows and one activity is recorded with the card's summary.
 *
 * `lockFirst` locks what the change depends on off the card (a membership, a field definition)
 * BEFORE the card: the order every other operation follows (definitions, then cards), so the
 * two cannot deadlock, and a concurrent removal of that row waits for this change or is seen by it.
 */
export async function changeCardParts<T>(
  ctx: BoardContext & { cardId: number; expectedVersion?: number | undefined },
  action: BoardAction,
  fn: (tx: Tx, card: CardRow, record: RecordActivity) => Promise<CardPartChange<T>>,
  lockFirst?: (tx: Tx, card: CardRow) => Promise<unknown>,
): Promise<{ result: T; card: CardView }> {
  return withRetry(async () => {
    const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
    authorize(ctx.actor, action, role);
    return changeBoard(ctx, async (tx, record) => {
      await lockFirst?.(tx, card);
      const current = await lockCard(tx, card, { expectedVersion: ctx.expectedVersion, anyList: true });
      if (current === RETRY) return RETRY;
      const { activity, result } = await fn(tx, current, record);
      if (activity) {
        await tx.$executeRaw`UPDATE "Card" SET version = version + 1, "updatedAt" = now() WHERE id = ${current.id}`;
      }
      const full = await fullCard(tx, current.id);
      if (activity) {
        await record({ boardId: current.boardId, ...withCard(activity, current.id, summaryOf(full)) });
      }
      return { result, card: full };
    });
  });
}
