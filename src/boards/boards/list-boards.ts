import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { reachableBoards } from '../access.js';

/**
 * The actor's boards (active, or archived ones), with the actor's role on each, by id: the boards
 * and roles of one reach statement (reachableBoards), so a board is never listed without its role.
 */
export async function listBoards({ db, actor, archived }: { db: DbClient; actor: Actor; archived: boolean }) {
  const roles = await reachableBoards(db, actor);
  const boards = await db.board.findMany({ where: { archived, id: { in: [...roles.keys()] } }, orderBy: { id: 'asc' } });
  return boards.map((board) => ({ board, role: roles.get(board.id)! }));
}
