import type { DbClient } from '../platform/db.js';

/** The workspace's endpoints, oldest first. */
export function listEndpoints({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  return db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
}
