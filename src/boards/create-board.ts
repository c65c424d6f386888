import type { Actor } from '../platform/auth.js';
import type { PrismaClient } from '../platform/db.js';
import { authorizeCreateBoard } from './policy.js';

/** A new board whose creator is its admin. */
export async function createBoard({ db, actor, name, description = '' }: { db: PrismaClient; actor: Actor; name: string; description?: string | undefined }) {
  authorizeCreateBoard(actor);
  return db.board.create({
    data: { name, description, members: { create: { userId: actor.userId, role: 'admin' } } },
  });
}
