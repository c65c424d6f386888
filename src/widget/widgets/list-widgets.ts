import type { DbClient } from '../../platform/db.js';

/** The widgets of a workspace (or of one agent), oldest first. */
export function listWidgets({ db, workspaceId, agentId }: { db: DbClient; workspaceId?: number | undefined; agentId?: string | undefined }) {
  return db.widget.findMany({
    where: { ...(workspaceId !== undefined ? { workspaceId } : {}), ...(agentId !== undefined ? { agentId } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}
