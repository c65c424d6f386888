import { randomBytes } from 'node:crypto';
import type { Database } from '../src/platform/db.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { makeUser } from './factories.js';

const unique = () => randomBytes(4).toString('hex');

/** A new workspace owned by a new user (or the one given), with others in the given roles. */
export async function makeWorkspace(
  db: Database,
  options: { ownerId?: number; members?: { userId: number; role: 'owner' | 'admin' | 'member' }[]; name?: string } = {},
) {
  const ownerId = options.ownerId ?? (await makeUser(db)).id;
  const workspace = await createWorkspace({ db: db.prisma, name: options.name ?? `Workspace ${unique()}`, ownerId });
  if (options.members?.length) {
    await db.prisma.workspaceMember.createMany({ data: options.members.map((m) => ({ ...m, workspaceId: workspace.id })) });
  }
  return { ...workspace, ownerId };
}
