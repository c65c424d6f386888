import type { Actor } from '../../accounts/credentials/auth.js';
import { requireList } from '../../boards/access.js';
import type { DbClient } from '../../platform/db.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { teamWriter } from './team-writer.js';

/** Where a workspace's tickets go as cards; null ids when they go nowhere. */
export interface TicketsBoardView {
  boardId: number | null;
  listId: number | null;
  solvedListId: number | null;
}

export function presentTicketsBoard(w: { ticketsBoardId: number | null; ticketsListId: number | null; ticketsSolvedListId: number | null }): TicketsBoardView {
  return { boardId: w.ticketsBoardId, listId: w.ticketsListId, solvedListId: w.ticketsSolvedListId };
}

/**
 * Sends the workspace's new tickets to a board (`target`), or nowhere (null). The lists must be on
 * the board, and the workspace's team must be able to write it (teamWriter): else 422
 * `board_not_writable`, so tickets never go where nobody of the team could answer them. From the
 * console, `actor` must reach the board and its lists too (404 otherwise, as any board they cannot
 * see); the admin CLI speaks for the operator and passes none.
 */
export async function setTicketsBoard({ db, workspaceId, actor, target }: {
  db: DbClient;
  workspaceId: number;
  actor: Actor | null;
  target: { boardId: number; listId: number; solvedListId?: number | null | undefined } | null;
}): Promise<TicketsBoardView> {
  if (!target) {
    const w = await db.workspace.update({ where: { id: workspaceId }, data: { ticketsBoardId: null, ticketsListId: null, ticketsSolvedListId: null } });
    return presentTicketsBoard(w);
  }
  const listIds = [target.listId, ...(target.solvedListId ? [target.solvedListId] : [])];
  if (target.solvedListId === target.listId) throw badRequest('solvedListId: must be another list than listId');
  for (const [i, listId] of listIds.entries()) {
    const field = i === 0 ? 'listId' : 'solvedListId';
    const list = actor ? (await requireList(db, actor, listId)).list : await db.list.findUnique({ where: { id: listId } });
    if (!list || list.boardId !== target.boardId) throw badRequest(`${field}: no list ${listId} on board ${target.boardId}`);
    if (list.archived) throw badRequest(`${field}: list ${listId} is archived`);
  }
  if (!(await teamWriter({ db, workspaceId, boardId: target.boardId }))) {
    throw new AppError(422, 'board_not_writable', `boardId: no member of this workspace can write board ${target.boardId}; add one to the board as a member or admin first`);
  }
  const w = await db.workspace.update({
    where: { id: workspaceId },
    data: { ticketsBoardId: target.boardId, ticketsListId: target.listId, ticketsSolvedListId: target.solvedListId ?? null },
  });
  return presentTicketsBoard(w);
}
