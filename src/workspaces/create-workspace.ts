import type { PrismaClient } from '../platform/db.js';

/** A new workspace with `ownerId` as its owner. */
export async function createWorkspace({ db, name, ownerId }: { db: PrismaClient; name: string; ownerId: number }) {
  return db.workspace.create({
    data: { name, members: { create: { userId: ownerId, role: 'owner' } } },
  });
}
