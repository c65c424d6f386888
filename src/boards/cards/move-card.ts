import type { BoardContext } from '../context.js';
import { FULL_CARD_CALL } from '../json/card-json.js';
import type { CardOutcome } from './card-refusal.js';
import { runCardStatement } from './run-card-statement.js';

export interface MoveCardOptions extends BoardContext {
  cardId: number;
  listId: number;
  /** 0..n among the target list's other cards; omitted: the end. */
  position?: number | undefined;
  /** If-Match / body `version`: 409 when the card changed since. */
  expectedVersion?: number | undefined;
}

/**
 * Moves a card to `position` (default: the end) of a list on its board or on another board the
 * actor may write to. Both lists are locked, then the card, so concurrent moves keep positions
 * 0..n-1; anything that moved meanwhile is read and authorised again, then 409. One statement:
 * sql/move-card.sql.
 */
export async function moveCard(ctx: MoveCardOptions) {
  return runCardStatement(ctx, (db, c) => db.$queryRaw<{ outcome: CardOutcome<'card.moved'> }[]>`
    SELECT tb_move_card(${ctx.cardId}::int, ${ctx.listId}::int, ${ctx.position ?? null}::int, ${ctx.expectedVersion ?? null}::int,
      ${ctx.actor.userId}::int, ${ctx.actor.boardIds}::int[], ${c.writers}::text[], ${c.crossBoards}::boolean, ${c.actor}::jsonb,
      ${FULL_CARD_CALL}::text, ${c.notify}::text[], ${c.inTransaction}::boolean) AS outcome`);
}
