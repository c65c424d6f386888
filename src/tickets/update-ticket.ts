import type { DbClient } from '../platform/db.js';
import { getTicket } from './get-ticket.js';
import { presentTicket } from './presenters.js';

/** Changes a ticket's status or priority. */
export async function updateTicket({
  db,
  workspaceId,
  id,
  changes,
}: {
  db: DbClient;
  workspaceId: number;
  id: string;
  changes: { status?: 'open' | 'pending' | 'solved' | 'closed' | undefined; priority?: 'low' | 'normal' | 'high' | 'urgent' | undefined };
}) {
  const current = await getTicket({ db, workspaceId, id });
  const ticket = await db.ticket.update({ where: { id: current.id }, data: { status: changes.status, priority: changes.priority } });
  return presentTicket(ticket);
}
