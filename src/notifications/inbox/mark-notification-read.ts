import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { findReachableBoards, type Who } from './find-reachable-boards.js';
import type { NotificationSignals } from './notification-signals.js';
import { presentNotification } from '../presenters.js';

/**
 * Marks one read (or unread again); 404 for someone else's or an unknown one. The person's open
 * unread-count streams in this process count again.
 */
export async function markNotificationRead({ db, who, id, read, signals }: { db: DbClient; who: Who; id: number; read: boolean; signals: NotificationSignals }) {
  const boards = await findReachableBoards({ db, who });
  const found = await db.notification.findFirst({ where: { id, userId: who.userId, boardId: { in: boards } } });
  if (!found) throw notFound('notification: not found');
  const row = await db.notification.update({ where: { id }, data: { readAt: read ? (found.readAt ?? new Date()) : null } });
  signals.changed([who.userId]);
  return presentNotification(row);
}
