import type { Tx } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import { CARD_COLUMNS, type CardRow } from './rows.js';
import { RETRY } from './retry.js';

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
