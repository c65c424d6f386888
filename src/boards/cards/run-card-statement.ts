import { actorColumns, changeBoardInOneStatement } from '../activity/change-board.js';
import type { Tx } from '../../platform/db.js';
import type { BoardContext } from '../context.js';
import { type BoardRole, mayCrossBoards, rolesAllowing } from '../policy.js';
import { RETRY, withRetry } from '../retry.js';
import type { CardView } from '../schemas.js';
import { type CardOutcome, refusalError } from './card-refusal.js';

/** What every card statement is told besides its own arguments. */
export interface StatementCaller {
  /** The roles that may write cards (policy.ts), checked in SQL. */
  writers: BoardRole[];
  /** Whether the actor may move a card to another board (policy.ts mayCrossBoards), checked in SQL. */
  crossBoards: boolean;
  /** actorColumns(actor) as JSON: who the activities are attributed to. */
  actor: string;
  /** Where the statement announces its activities to the other processes ([channel, origin]), in its own transaction. */
  notify: string[] | null;
  /** Whether it runs inside a transaction that also writes the webhook outbox. */
  inTransaction: boolean;
}

/**
 * Runs a card change that is one database statement (move-card.sql, update-card.sql): the API's
 * hottest writes, where each round trip to the database cost more than the work itself. A retry
 * (the card moved between reading and locking) runs it again in a new transaction; a refusal
 * becomes its error (card-refusal.ts) without any check being made again here.
 */
export function runCardStatement<T extends 'card.moved' | 'card.updated' | 'card.archived'>(
  ctx: BoardContext,
  run: (db: Tx | BoardContext['db'], caller: StatementCaller) => Promise<{ outcome: CardOutcome<T> }[]>,
): Promise<CardView> {
  const actor = JSON.stringify(actorColumns(ctx.actor));
  const writers = rolesAllowing('card.write');
  const crossBoards = mayCrossBoards(ctx.actor);
  return withRetry(() =>
    changeBoardInOneStatement<CardView | typeof RETRY>(ctx, async (db, inTransaction) => {
      const [row] = await run(db, { writers, crossBoards, actor, notify: ctx.events.notifyTarget, inTransaction });
      const outcome = row!.outcome;
      if (!('error' in outcome)) {
        return { result: outcome.card, activities: outcome.activities.map((a) => ({ ...a, createdAt: new Date(a.createdAt) })) };
      }
      if (outcome.error === 'hooked') return { hooked: true };
      if (outcome.error === 'retry') return { result: RETRY, activities: [] };
      throw refusalError(outcome);
    }),
  );
}
