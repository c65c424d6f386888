import type { PrismaClient } from '../platform/db.js';
import type { Effects } from '../platform/after-commit.js';
import { changeWithOutbox } from '../webhooks/outbox.js';
import type { TicketFollowUps } from './follow-ups.js';
import { getTicket } from './get-ticket.js';
import { presentTicket } from './presenters.js';
import type { TicketView } from './schemas.js';
import type { TicketCommentHub } from './comments/comment-hub.js';

/**
 * Changes a ticket's status or priority. A real change emits `ticket.updated` in the same
 * transaction (its `data` is the ticket as changed, plus `previous` with the old values of the
 * fields that changed); a request that changes nothing emits nothing.
 */
export async function updateTicket({
  db,
  workspaceId,
  id,
  changes,
  effects,
  hub,
  cards,
}: {
  db: PrismaClient;
  workspaceId: number;
  id: string;
  changes: { status?: TicketView['status'] | undefined; priority?: TicketView['priority'] | undefined };
  /** After the commit: the ticket.updated deliveries' wake ('webhook.queued'). */
  effects: Effects;
  /** Told of a new status after the commit (open widgets ask for a rating once it is solved). */
  hub?: TicketCommentHub | undefined;
  /** After a committed change: the ticket's card follows its status and priority. */
  cards: TicketFollowUps;
}) {
  const { id: ticketId } = await getTicket({ db, workspaceId, id });
  let changedStatus: string | null = null;
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
    if (previous.status !== undefined) changedStatus = ticket.status;
    changed = true;
    return ticket;
  });
  if (changedStatus !== null) hub?.publishStatus(ticketId, changedStatus);
  if (changed) await cards.ticketChanged(result);
  return result;
}
