import { conflict } from '../platform/errors.js';
import type { CardRow } from './rows.js';

/** If-Match / body `version`: refuse (409) when the card changed since the client read it. */
export function checkVersion(card: CardRow, expected: number | undefined) {
  if (expected !== undefined && expected !== card.version) throw versionConflict(expected, card.version);
}

/** The 409 for a stale version: checkVersion's, and a card statement's. */
export function versionConflict(expected: number, now: number) {
  return conflict(`card: changed since version ${expected} (now ${now}); fetch it again`);
}
