import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import { presentTicket } from './presenters.js';

const ticketNotFound = () => notFound('ticket: not found in this workspace');

/** The workspace's ticket with this id (any shape of id that names none is 404). */
export async function getTicket({ db, workspaceId, id }: { db: DbClient; workspaceId: number; id: string }) {
  if (!/^\d{1,10}$/.test(id) || Number(id) > 2_147_483_647) throw ticketNotFound();
  const ticket = await db.ticket.findFirst({ where: { id: Number(id), workspaceId } });
  if (!ticket) throw ticketNotFound();
  return presentTicket(ticket);
}
