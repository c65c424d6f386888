import type { DbClient } from '../platform/db.js';

/** The user's connected apps, most recent first. */
export function listConnections({ db, userId }: { db: DbClient; userId: number }) {
  return db.connectorConnection.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}
