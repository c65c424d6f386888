import type { ActivityData, ActivityType, TypedActivity } from './activity/activity-types.js';
import { changeBoard, type RecordActivity } from './activity/change-board.js';
import type { Tx } from '../platform/db.js';
import { Prisma } from '../generated/prisma/client.js';
import { conflict, notFound } from '../platform/errors.js';
import { requireCard } from './access.js';
import { loadFullCard, summaryOf } from './json/card-json.js';
import type { BoardContext } from './context.js';
import { authorize, type BoardAction } from './policy.js';
import { CARD_COLUMNS, type CardRow } from './rows.js';
import { RETRY, withRetry } from './retry.js';
import type { CardSummaryView, CardView } from './schemas.js';

/** If-Match / body `version`: refuse (409) when the card changed since the client read it. */
export function checkVersion(card: CardRow, expected: number | undefined) {
  if (expected !== undefined && expected !== card.version) throw versionConflict(expected, card.version);
}

export function versionConflict(expected: number, now: number) {
  return conflict(`card: changed since version ${expected} (now ${now}); fetch it again`);
}

/**
 * The card row locked, or RETRY when it is no longer where it was authorised (moved to another
 * list or board meanwhile): what was checked must be what is written.
 */
export async function lockCard(tx: Tx, authorised: CardRow, sameList = true): Promise<CardRow | typeof RETRY> {
  const [card] = await tx.$queryRaw<CardRow[]>`SELECT ${CARD_COLUMNS} FROM "Card" c WHERE c.id = ${authorised.id} FOR NO KEY UPDATE`;
  if (!card) throw notFound('card: not found');
  if (card.boardId !== authorised.boardId || (sameList && card.listId !== authorised.listId)) return RETRY;
  return card;
}

/** The full card as it is now in the transaction; its summary goes into activities. */
export async function fullCard(tx: Tx, cardId: number): Promise<CardView> {
  const card = await loadFullCard(tx, cardId);
  if (!card) throw notFound('card: not found');
  return card;
}

/** Bumps versions of cards changed in bulk (a label or field removed, a member gone), locking them in id order. */
export async function touchCards(tx: Tx, cardIds: number[]) {
  if (cardIds.length === 0) return;
  const ids = [...new Set(cardIds)].sort((a, b) => a - b);
  await tx.$queryRaw`SELECT id FROM "Card" WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR NO KEY UPDATE`;
  await tx.$executeRaw`UPDATE "Card" SET version = version + 1, "updatedAt" = now() WHERE id IN (${Prisma.join(ids)})`;
}

/**
 * Fits cards to `boardId` (after a move there): labels of other boards mapped to its label of the
 * same name and colour (created when missing); custom-field values of other boards and assignees
 * who are not members of it dropped.
 */
export async function dropOtherBoardsParts(tx: Tx, cardIds: number[], boardId: number) {
  if (cardIds.length === 0) return;
  // Written once, in sql/card-statement.sql, which a card move runs too.
  await tx.$executeRaw`SELECT tb_drop_other_boards_parts(${cardIds}::int[], ${boardId}::int)`;
}

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
      const current = await lockCard(tx, card, false);
      if (current === RETRY) return RETRY;
      checkVersion(current, ctx.expectedVersion);
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
