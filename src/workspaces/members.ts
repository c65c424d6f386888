import type { DbClient, PrismaClient } from '../platform/db.js';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors.js';
import type { WorkspaceRole } from './access.js';

const memberSelect = { userId: true, role: true, createdAt: true, user: { select: { name: true, email: true, status: true } } } as const;

export function listWorkspaceMembers({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  return db.workspaceMember.findMany({ where: { workspaceId }, select: memberSelect, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] });
}

/** Only an owner hands out or takes away ownership; admins manage admins and members. */
function mayAssign(actorRole: WorkspaceRole, from: WorkspaceRole | null, to: WorkspaceRole | null) {
  if (actorRole === 'owner') return true;
  return from !== 'owner' && to !== 'owner';
}

/**
 * Locks the workspace's owner rows: changes that could leave it without an owner are decided one
 * at a time, so two owners demoting each other at once cannot both succeed.
 */
async function ownersLocked(tx: DbClient, workspaceId: number) {
  const rows = await tx.$queryRawUnsafe<{ userId: number }[]>(
    `SELECT "userId" FROM "WorkspaceMember" WHERE "workspaceId" = $1 AND role = 'owner' FOR UPDATE`,
    workspaceId,
  );
  return rows.map((r) => r.userId);
}

export async function addWorkspaceMember({
  db,
  workspaceId,
  actorRole,
  email,
  role,
}: {
  db: PrismaClient;
  workspaceId: number;
  actorRole: WorkspaceRole;
  email: string;
  role: WorkspaceRole;
}) {
  if (!mayAssign(actorRole, null, role)) throw forbidden('role: only an owner may add an owner');
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, status: true } });
  if (!user || user.status === 'deleted') throw badRequest('email: no user has this address; a site administrator creates accounts');
  const existing = await db.workspaceMember.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
  if (existing) throw conflict(`email: already a member (${existing.role})`);
  return db.workspaceMember.create({ data: { workspaceId, userId: user.id, role }, select: memberSelect });
}

export async function changeWorkspaceMember({
  db,
  workspaceId,
  actorId,
  userId,
  role,
}: {
  db: PrismaClient;
  workspaceId: number;
  /** Their role is read again under the lock: one demoted a moment ago no longer manages. */
  actorId: number;
  userId: number;
  /** null removes the member. */
  role: WorkspaceRole | null;
}) {
  return db.$transaction(async (tx) => {
    const owners = await ownersLocked(tx, workspaceId);
    const actor = await tx.workspaceMember.findUnique({ where: { workspaceId_userId: { workspaceId, userId: actorId } } });
    if (!actor) throw notFound('workspace: not found');
    const actorRole = actor.role;
    if (actorRole === 'member') throw forbidden(`workspace: your role (${actorRole}) may not change it`);
    const member = await tx.workspaceMember.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    if (!member) throw notFound('member: not a member of this workspace');
    if (!mayAssign(actorRole, member.role, role)) throw forbidden('role: only an owner may change an owner or make one');
    if (member.role === 'owner' && role !== 'owner' && owners.length === 1) {
      throw conflict('role: a workspace keeps at least one owner; make someone else owner first');
    }
    if (role === null) {
      await tx.workspaceMember.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
      return null;
    }
    return tx.workspaceMember.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role }, select: memberSelect });
  });
}

export function presentWorkspaceMember(m: { userId: number; role: WorkspaceRole; createdAt: Date; user: { name: string; email: string; status: string } }) {
  return { userId: m.userId, name: m.user.name, email: m.user.email, role: m.role, active: m.user.status === 'active', createdAt: m.createdAt.toISOString() };
}
