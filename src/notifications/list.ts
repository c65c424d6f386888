import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';

/** Boards the user is a member of now, narrowed to the key's boards. */
async function reachableBoards(db: DbClient, userId: number, boardIds: number[] | null): Promise<number[]> {
  const rows = await db.boardMember.findMany({ where: { userId, ...(boardIds ? { boardId: { in: boardIds } } : {}) }, select: { boardId: true } });
  return rows.map((r) => r.boardId);
}

export interface Who {
  userId: number;
  boardIds: number[] | null;
}

const present = (n: { id: number; kind: string; boardId: number; cardId: number | null; actorName: string | null; text: string; readAt: Date | null; createdAt: Date }) => ({
  id: n.id,
  kind: n.kind as 'assigned' | 'mentioned' | 'due' | 'watched',
  boardId: n.boardId,
  cardId: n.cardId,
  actorName: n.actorName,
  text: n.text,
  read: n.readAt !== null,
  createdAt: n.createdAt.toISOString(),
});

/** Newest first, `limit` at a time before the id `before`; only unread ones with `unread`. */
export async function listNotifications({ db, who, limit, before, unread }: { db: DbClient; who: Who; limit: number; before?: number | undefined; unread?: boolean | undefined }) {
  const boards = await reachableBoards(db, who.userId, who.boardIds);
  const rows = await db.notification.findMany({
    where: { userId: who.userId, boardId: { in: boards }, ...(before ? { id: { lt: before } } : {}), ...(unread ? { readAt: null } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    notifications: page.map(present),
    nextBefore: rows.length > limit ? page[page.length - 1]!.id : null,
    unread: await unreadCount({ db, who, boards }),
  };
}

export async function unreadCount({ db, who, boards }: { db: DbClient; who: Who; boards?: number[] }): Promise<number> {
  const on = boards ?? (await reachableBoards(db, who.userId, who.boardIds));
  return db.notification.count({ where: { userId: who.userId, boardId: { in: on }, readAt: null } });
}

/** Marks one read (or unread again); 404 for someone else's or an unknown one. */
export async function markRead({ db, who, id, read }: { db: DbClient; who: Who; id: number; read: boolean }) {
  const boards = await reachableBoards(db, who.userId, who.boardIds);
  const found = await db.notification.findFirst({ where: { id, userId: who.userId, boardId: { in: boards } } });
  if (!found) throw notFound('notification: not found');
  const row = await db.notification.update({ where: { id }, data: { readAt: read ? (found.readAt ?? new Date()) : null } });
  return present(row);
}

/** Marks every unread one read (up to `upTo`, the newest the person saw, when given); how many. */
export async function markAllRead({ db, who, upTo }: { db: DbClient; who: Who; upTo?: number | undefined }): Promise<number> {
  const boards = await reachableBoards(db, who.userId, who.boardIds);
  const { count } = await db.notification.updateMany({
    where: { userId: who.userId, boardId: { in: boards }, readAt: null, ...(upTo ? { id: { lte: upTo } } : {}) },
    data: { readAt: new Date() },
  });
  return count;
}
