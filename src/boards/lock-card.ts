import type { Tx } from '../platform/db.js';
import { conflict, notFound } from '../platform/errors.js';
import { CARD_COLUMNS, type CardRow } from './rows.js';
import { RETRY } from './retry.js';

/** What tb_lock_card answers when it refuses (sql/lock-card.sql). */
type LockRefusal = { error: 'not_found' } | { error: 'retry' } | { error: 'version'; expected: number; version: number };

/**
 * The card row locked, or RETRY when it is no longer where it was authorised (moved to another
 * board, or another list unless `anyList`, meanwhile): what was checked must be what is written.
 * 409 when `expectedVersion` (If-Match / body `version`) is not the card's. The lock and both
 * checks are sql/lock-card.sql's tb_lock_card, which the card statements run too.
 */
export async function lockCard(tx: Tx, authorised: CardRow, options: { expectedVersion?: number | undefined; anyList?: boolean } = {}): Promise<CardRow | typeof RETRY> {
  const [row] = await tx.$queryRaw<(CardRow & { refusal: LockRefusal | null })[]>`
    SELECT ${CARD_COLUMNS}, l.refusal
      FROM tb_lock_card(${authorised.id}::int, ${authorised.boardId}::int, ${options.anyList ? null : authorised.listId}::int, ${options.expectedVersion ?? null}::int) l,
           LATERAL (SELECT (l.card).*) c`;
  const { refusal, ...card } = row!;
  if (refusal?.error === 'not_found') throw notFound('card: not found');
  if (refusal?.error === 'retry') return RETRY;
  if (refusal?.error === 'version') throw versionConflict(refusal.expected, refusal.version);
  return card;
}

/** The 409 for a stale version: lockCard's, and a card statement's (card-refusal.ts). */
export function versionConflict(expected: number, now: number) {
  return conflict(`card: changed since version ${expected} (now ${now}); fetch it again`);
}
