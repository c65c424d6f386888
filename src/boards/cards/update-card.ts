import type { BoardContext } from '../context.js';
import { FULL_CARD_CALL } from '../json/card-json.js';
import type { CardOutcome } from './card-refusal.js';
import { runCardStatement } from './run-card-statement.js';

export interface CardChanges {
  title?: string | undefined;
  description?: string | undefined;
  dueAt?: Date | null | undefined;
  archived?: boolean | undefined;
}

export interface UpdateCardOptions extends BoardContext {
  cardId: number;
  changes: CardChanges;
  /** If-Match / body `version`: 409 when the card changed since. */
  expectedVersion?: number | undefined;
}

/** Edits a card; archiving closes its gap, restoring puts it back at its place (rule in sql/update-card.sql, one statement). */
export async function updateCard(ctx: UpdateCardOptions) {
  const { title, description, dueAt, archived } = ctx.changes;
  return runCardStatement(ctx, (db, c) => db.$queryRaw<{ outcome: CardOutcome<'card.updated' | 'card.archived'> }[]>`
    SELECT tb_update_card(${ctx.cardId}::int, ${ctx.expectedVersion ?? null}::int,
      ${ctx.actor.userId}::int, ${ctx.actor.boardIds}::int[], ${c.writers}::text[], ${c.actor}::jsonb,
      ${title ?? null}::text, ${description ?? null}::text, ${dueAt !== undefined}::boolean, ${dueAt ?? null}::timestamptz, ${archived ?? null}::boolean,
      ${FULL_CARD_CALL}::text, ${c.notify}::text[], ${c.inTransaction}::boolean) AS outcome`);
}
