import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { boardsVisibleTo } from '../access.js';

/** The actor's boards (active, or archived ones), with the actor's role on each, by id. */
export async function listBoards({ db, actor, archived }: { db: DbClient; actor: Actor; archived: boolean }) {
  const boards = await db.board.findMany({
    where: await boardsVisibleTo(db, actor, { archived }),
    include: { members: { where: { userId: actor.userId }, select: { role: true } } },
    orderBy: { id: 'asc' },
  });
  return boards.map(({ members, ...board }) => ({ board, role: members[0]!.role }));
}
