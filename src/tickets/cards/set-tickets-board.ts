import type { Actor } from '../../accounts/credentials/auth.js';
import { requireList } from '../../boards/access.js';
import type { EventBus } from '../../boards/activity/event-bus.js';
import type { Effects } from '../../platform/after-commit.js';
import type { PrismaClient } from '../../platform/db.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { TICKET_TOPICS } from '../ticket-changes.js';
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
 * see); the admin CLI speaks for the operator and passes none. The processes that move cards are
 * told (a 'tickets.board' change here, announced to the others in its transaction): they know which
 * lists solve tickets (TicketCards).
 */
export async function setTicketsBoard({ db, events, effects, workspaceId, actor, target }: {
  db: PrismaClient;
  events: EventBus;
  effects: Effects;
  workspaceId: number;
  actor: Actor | null;
  target: { boardId: number; listId: number; solvedListId?: number | null | undefined } | null;
}): Promise<TicketsBoardView> {
  const save = async (data: { ticketsBoardId: number | null; ticketsListId: number | null; ticketsSolvedListId: number | null }) => {
    const w = await db.$transaction(async (tx) => {
      const saved = await tx.workspace.update({ where: { id: workspaceId }, data });
      await events.announceInTransaction(tx, TICKET_TOPICS.board, { workspaceId });
      return saved;
    });
    await effects.committed({ kind: 'tickets.board', workspaceId });
    return presentTicketsBoard(w);
  };
  if (!target) return save({ ticketsBoardId: null, ticketsListId: null, ticketsSolvedListId: null });
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
  return save({ ticketsBoardId: target.boardId, ticketsListId: target.listId, ticketsSolvedListId: target.solvedListId ?? null });
}
