import type { DbClient } from '../../platform/db.js';
import { countUnreadNotifications } from './count-unread-notifications.js';
import { findReachableBoards, type Who } from './find-reachable-boards.js';
import { presentNotification } from '../presenters.js';

/** Newest first, `limit` at a time before the id `before`; only unread ones with `unread`. */
export async function listNotifications({ db, who, limit, before, unread }: { db: DbClient; who: Who; limit: number; before?: number | undefined; unread?: boolean | undefined }) {
  const boards = await findReachableBoards({ db, who });
  const rows = await db.notification.findMany({
    where: { userId: who.userId, boardId: { in: boards }, ...(before ? { id: { lt: before } } : {}), ...(unread ? { readAt: null } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    notifications: page.map(presentNotification),
    nextBefore: rows.length > limit ? page[page.length - 1]!.id : null,
    unread: await countUnreadNotifications({ db, who, boards }),
  };
}
