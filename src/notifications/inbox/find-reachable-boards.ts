import type { DbClient } from '../../platform/db.js';

/** Whose notifications: the person, and the boards their key is limited to (null: every board). */
export interface Who {
  userId: number;
  boardIds: number[] | null;
}

/**
 * The boards whose notifications the person may list, count and mark: those they are a member of
 * now, narrowed to the key's boards. One left or removed from a board sees none of its notifications.
 */
export async function findReachableBoards({ db, who }: { db: DbClient; who: Who }): Promise<number[]> {
  const rows = await db.boardMember.findMany({ where: { userId: who.userId, ...(who.boardIds ? { boardId: { in: who.boardIds } } : {}) }, select: { boardId: true } });
  return rows.map((r) => r.boardId);
}
