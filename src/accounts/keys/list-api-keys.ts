import type { DbClient } from '../../platform/db.js';

/** All of a user's keys, revoked and expired included, newest first. */
export function listApiKeys({ db, userId }: { db: DbClient; userId: number }) {
  return db.apiKey.findMany({
    where: { userId },
    orderBy: { id: 'desc' },
    include: { boards: { select: { boardId: true } } },
  });
}
