import type { DbClient } from '../platform/db.js';

/** The workspaces the user is a member of, with their role, oldest first. */
export async function listWorkspaces({ db, userId }: { db: DbClient; userId: number }) {
  const rows = await db.workspaceMember.findMany({ where: { userId }, include: { workspace: true }, orderBy: { workspaceId: 'asc' } });
  return rows.map((m) => ({ ...m.workspace, role: m.role }));
}
