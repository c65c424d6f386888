import type { DbClient } from '../platform/db.js';
import { forbidden, notFound } from '../platform/errors.js';

export type WorkspaceRole = 'owner' | 'admin' | 'member';

export type WorkspaceAction = 'read' | 'review' | 'manage';

/**
 * What a workspace member may do, by role. Members read, and review the agent's answers (their
 * verdicts teach it: that is the support staff's daily work); owners and admins change settings.
 */
const CAN: Record<WorkspaceAction, ReadonlySet<WorkspaceRole>> = {
  read: new Set(['owner', 'admin', 'member']),
  review: new Set(['owner', 'admin', 'member']),
  manage: new Set(['owner', 'admin']),
};

/**
 * The workspace as the user sees it, with their role; 404 when it does not exist or the user is
 * not a member (indistinguishable), 403 when the role does not allow `action`.
 */
export async function workspaceForUser({
  db,
  userId,
  workspaceId,
  action,
}: {
  db: DbClient;
  userId: number;
  workspaceId: number;
  action: WorkspaceAction;
}) {
  const membership = await db.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    include: { workspace: true },
  });
  if (!membership) throw notFound('workspace: not found');
  if (!CAN[action].has(membership.role)) throw forbidden(`workspace: your role (${membership.role}) may not change it`);
  return { ...membership.workspace, role: membership.role };
}

/** The workspace, for operators (CLI): 404 when it does not exist. */
export async function unsafeFindWorkspace({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  // "unsafe": no membership check; only the admin CLI, which speaks for the operator, calls it.
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) throw notFound(`workspace: no workspace ${workspaceId}`);
  return workspace;
}
