import type { DbClient } from '../../platform/db.js';
import { findReachableBoards, type Who } from './find-reachable-boards.js';

/** How many of the person's notifications are unread, on the boards they reach (`boards` when the caller read them already). */
export async function countUnreadNotifications({ db, who, boards }: { db: DbClient; who: Who; boards?: number[] }): Promise<number> {
  const on = boards ?? (await findReachableBoards({ db, who }));
  return db.notification.count({ where: { userId: who.userId, boardId: { in: on }, readAt: null } });
}
