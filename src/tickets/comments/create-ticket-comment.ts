import type { PrismaClient } from '../../platform/db.js';
import { changeWithOutbox, type Outbox } from '../../webhooks/outbox.js';
import { getTicket } from '../get-ticket.js';
import { presentTicket } from '../presenters.js';
import type { TicketCommentHub } from './comment-hub.js';
import type { TicketCommentView } from './schemas.js';

export function presentTicketComment(c: { id: number; ticketId: number; body: string; public: boolean; author: 'team' | 'requester'; createdAt: Date }): TicketCommentView {
  return { id: c.id, ticketId: c.ticketId, body: c.body, public: c.public, author: c.author, createdAt: c.createdAt.toISOString() };
}

/**
 * A comment on a ticket — the one function behind the console's reply box, POST /v1/tickets/{id}/comments
 * and the customer's answers in the widget. Emits `ticket.comment_created` in the same transaction; a
 * customer's answer sets a ticket that is not open back to open (`ticket.updated`). After the commit a
 * public comment goes to the ticket's open widgets (hub); how many were listening is returned.
 */
export async function createTicketComment({ db, workspaceId, ticketId, input, author, userId, outbox, hub }: {
  db: PrismaClient;
  workspaceId: number;
  ticketId: string;
  input: { body: string; public: boolean };
  author: 'team' | 'requester';
  userId?: number | undefined;
  outbox?: Outbox | undefined;
  hub?: TicketCommentHub | undefined;
}): Promise<{ comment: TicketCommentView; listeners: number }> {
  const ticket = await getTicket({ db, workspaceId, id: ticketId });
  const comment = await changeWithOutbox({ db, outbox }, async (tx, record) => {
    const row = await tx.ticketComment.create({
      data: { ticketId: ticket.id, workspaceId, body: input.body, public: author === 'requester' ? true : input.public, author, userId: userId ?? null },
    });
    const view = presentTicketComment(row);
    await record({ workspaceId, type: 'ticket.comment_created', data: view, at: row.createdAt });
    if (author === 'requester') {
      const [current] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM "Ticket" WHERE id = ${ticket.id} FOR NO KEY UPDATE`;
      if (current && current.status !== 'open') {
        const reopened = presentTicket(await tx.ticket.update({ where: { id: ticket.id }, data: { status: 'open' } }));
        await record({ workspaceId, type: 'ticket.updated', data: { ...reopened, previous: { status: current.status } }, at: new Date(reopened.updatedAt) });
      }
    }
    return view;
  });
  const listeners = comment.public && hub ? hub.publish(comment) : 0;
  return { comment, listeners };
}
