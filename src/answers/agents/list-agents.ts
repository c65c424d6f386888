import type { DbClient } from '../../platform/db.js';

/** The workspace's agents, oldest first. */
export function listAgents({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  return db.agent.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } });
}
