import type { PrismaClient } from '../../platform/db.js';

/** Every account, deleted ones included (their names stay in history), oldest first. */
export function listUsers(db: PrismaClient) {
  return db.user.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, email: true, name: true, siteAdmin: true, status: true, createdAt: true, passwordHash: true },
  });
}
