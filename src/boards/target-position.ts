import { badRequest } from '../platform/errors.js';

/** A requested position 0..n (omitted: the end); anything else is the client's mistake. */
export function targetPosition(requested: number | undefined, n: number): number {
  if (requested === undefined) return n;
  if (requested < 0 || requested > n) throw positionRefusal(n);
  return requested;
}

/** The 400 for a position outside 0..n: targetPosition's, and a card statement's. */
export const positionRefusal = (n: number) => badRequest(`position: must be between 0 and ${n}`);
