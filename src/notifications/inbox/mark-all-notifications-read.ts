import type { DbClient } from '../../platform/db.js';
import { findReachableBoards, type Who } from './find-reachable-boards.js';
import type { NotificationSignals } from './notification-signals.js';

/**
 * Marks every unread one read (up to `upTo`, the newest the person saw, when given); how many.
 * The person's open unread-count streams in this process count again.
 */
export async function markAllNotificationsRead({ db, who, upTo, signals }: { db: DbClient; who: Who; upTo?: number | undefined; signals: NotificationSignals }): Promise<number> {
  const boards = await findReachableBoards({ db, who });
  const { count } = await db.notification.updateMany({
    where: { userId: who.userId, boardId: { in: boards }, readAt: null, ...(upTo ? { id: { lte: upTo } } : {}) },
    data: { readAt: new Date() },
  });
  signals.changed([who.userId]);
  return count;
}
