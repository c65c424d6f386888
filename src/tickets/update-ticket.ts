import type { EventBus } from '../boards/activity/event-bus.js';
import type { PrismaClient } from '../platform/db.js';
import type { Effects } from '../platform/after-commit.js';
import { changeWithOutbox } from '../webhooks/outbox.js';
import { getTicket } from './get-ticket.js';
import { presentTicket } from './presenters.js';
import type { TicketView } from './schemas.js';
import { TICKET_TOPICS } from './ticket-changes.js';

/**
 * Changes a ticket's status or priority. A real change emits `ticket.updated` in the same
 * transaction (its `data` is the ticket as changed, plus `previous` with the old values of the
 * fields that changed), announces a new status to the other processes there (their open widgets),
 * and is reported after the commit as 'ticket.updated' (this process's widgets, the ticket's card,
 * which it waits for); a request that changes nothing emits nothing.
 */
export async function updateTicket({
  db,
  workspaceId,
  id,
  changes,
  events,
  effects,
}: {
  db: PrismaClient;
  workspaceId: number;
  id: string;
  changes: { status?: TicketView['status'] | undefined; priority?: TicketView['priority'] | undefined };
  /** Where the other processes hear of a new status, in the change's transaction (app.events). */
  events: EventBus;
  /** After the commit: the ticket.updated deliveries' wake, this process's widgets, the card. */
  effects: Effects;
}) {
  const { id: ticketId } = await getTicket({ db, workspaceId, id });
  let statusChanged = false;
  let changed = false;
  const result = await changeWithOutbox({ db, effects }, async (tx, record) => {
    // The row lock orders concurrent changes, so each event's `previous` is what it replaced.
    const [current] = await tx.$queryRaw<{ status: TicketView['status']; priority: TicketView['priority'] }[]>`
      SELECT status::text AS status, priority::text AS priority FROM "Ticket" WHERE id = ${ticketId} FOR NO KEY UPDATE`;
    const previous: Partial<Pick<TicketView, 'status' | 'priority'>> = {};
    if (changes.status !== undefined && changes.status !== current!.status) previous.status = current!.status;
    if (changes.priority !== undefined && changes.priority !== current!.priority) previous.priority = current!.priority;
    if (Object.keys(previous).length === 0) return presentTicket(await tx.ticket.findUniqueOrThrow({ where: { id: ticketId } }));
    const ticket = presentTicket(await tx.ticket.update({ where: { id: ticketId }, data: { status: changes.status, priority: changes.priority } }));
    await record({ workspaceId, type: 'ticket.updated', data: { ...ticket, previous }, at: new Date(ticket.updatedAt) });
    if (previous.status !== undefined) {
      statusChanged = true;
      await events.announceInTransaction(tx, TICKET_TOPICS.status, { ticketId: ticket.id, status: ticket.status });
    }
    changed = true;
    return ticket;
  });
  if (changed) await effects.committed({ kind: 'ticket.updated', ticket: result, statusChanged });
  return result;
}
