import type { DbClient } from '../../platform/db.js';
import { getTicket } from '../get-ticket.js';
import { presentTicketComment } from './create-ticket-comment.js';

/** A ticket's comments, oldest first (internal notes too: the team's view). */
export async function listTicketComments({ db, workspaceId, ticketId }: { db: DbClient; workspaceId: number; ticketId: string }) {
  const ticket = await getTicket({ db, workspaceId, id: ticketId });
  const rows = await db.ticketComment.findMany({ where: { ticketId: ticket.id }, orderBy: { id: 'asc' }, take: 1000 });
  return rows.map(presentTicketComment);
}
