import { reachableBoardIds, type Reach } from '../../boards/access.js';
import type { DbClient } from '../../platform/db.js';

/** Whose notifications: the person, and the boards their key is limited to (null: every board). */
export type Who = Reach;

/**
 * The boards whose notifications the person may list, count and mark: the boards they reach
 * (reachableBoardIds, the one rule of GET /boards). One left or removed from a board sees none of its notifications.
 */
export async function findReachableBoards({ db, who }: { db: DbClient; who: Who }): Promise<number[]> {
  return reachableBoardIds(db, who);
}
