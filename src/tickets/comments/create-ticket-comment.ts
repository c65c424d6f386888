import type { EventBus } from '../../boards/activity/event-bus.js';
import type { PrismaClient } from '../../platform/db.js';
import type { Effects } from '../../platform/after-commit.js';
import { changeWithOutbox } from '../../webhooks/outbox.js';
import { getTicket } from '../get-ticket.js';
import { presentTicket } from '../presenters.js';
import { recordReplyMail, type ReplyMail } from '../replies/reply-mail.js';
import { TICKET_TOPICS } from '../ticket-changes.js';
import type { TicketView } from '../schemas.js';
import type { TicketCommentView } from './schemas.js';

export function presentTicketComment(c: { id: number; ticketId: number; body: string; public: boolean; author: 'team' | 'requester'; createdAt: Date }): TicketCommentView {
  return { id: c.id, ticketId: c.ticketId, body: c.body, public: c.public, author: c.author, createdAt: c.createdAt.toISOString() };
}

/**
 * A comment on a ticket — the one function behind the console's reply box, POST /v1/tickets/{id}/comments
 * and the customer's answers in the widget. Emits `ticket.comment_created` in the same transaction; a
 * customer's answer sets a ticket that is not open back to open (`ticket.updated`). A team's public
 * reply also records its mail to the requester, due `mail.delayMs` later unless an open widget
 * acknowledges it (replies/reply-mail.ts). A public comment is announced to the other processes in
 * its transaction (their open widgets show it) and reported after the commit as 'ticket.commented'
 * (this process's open widgets, the ticket's card: platform/after-commit.ts EFFECTS).
 */
export async function createTicketComment({ db, workspaceId, ticketId, input, author, userId, events, effects, mail }: {
  db: PrismaClient;
  workspaceId: number;
  ticketId: string;
  input: { body: string; public: boolean };
  author: 'team' | 'requester';
  userId?: number | undefined;
  /** Where the other processes hear of a public comment, in its transaction (app.events). */
  events: EventBus;
  /** After the commit: the mail worker's wake, this process's widgets, the card. */
  effects: Effects;
  /**
   * How a team's public reply is mailed (app.replyMail); null only where no team reply can be
   * written (the customer's own answers). Required so that no place that replies forgets the mail.
   */
  mail: ReplyMail | null;
}): Promise<{ comment: TicketCommentView }> {
  const ticket = await getTicket({ db, workspaceId, id: ticketId });
  let mailed = false;
  let reopened: TicketView | null = null;
  const comment = await changeWithOutbox({ db, effects }, async (tx, record) => {
    const row = await tx.ticketComment.create({
      data: { ticketId: ticket.id, workspaceId, body: input.body, public: author === 'requester' ? true : input.public, author, userId: userId ?? null },
    });
    const view = presentTicketComment(row);
    await record({ workspaceId, type: 'ticket.comment_created', data: view, at: row.createdAt });
    if (author === 'team' && view.public && mail) {
      const [t, workspace] = await Promise.all([
        tx.ticket.findUniqueOrThrow({ where: { id: ticket.id }, select: { id: true, subject: true, requesterEmail: true } }),
        tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { name: true } }),
      ]);
      mailed = await recordReplyMail(tx, { mail, comment: row, ticket: t, workspaceName: workspace.name });
    }
    if (author === 'requester') {
      const [current] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM "Ticket" WHERE id = ${ticket.id} FOR NO KEY UPDATE`;
      if (current && current.status !== 'open') {
        const open = presentTicket(await tx.ticket.update({ where: { id: ticket.id }, data: { status: 'open' } }));
        await record({ workspaceId, type: 'ticket.updated', data: { ...open, previous: { status: current.status } }, at: new Date(open.updatedAt) });
        await events.announceInTransaction(tx, TICKET_TOPICS.status, { ticketId: open.id, status: open.status });
        reopened = open;
      }
    }
    if (view.public) await events.announceInTransaction(tx, TICKET_TOPICS.comment, { commentId: view.id, ticketId: view.ticketId });
    return view;
  });
  // Woken now: it finds the mail not yet due and looks again when it is (the mail worker's own timer).
  if (mailed) void effects.committed({ kind: 'mail.queued' });
  // Not waited for: the reply is answered as soon as it is committed (the card's copy follows).
  if (comment.public) void effects.committed({ kind: 'ticket.commented', comment });
  // Open again: its card comes back from the solved list, its widgets hear the status.
  if (reopened) void effects.committed({ kind: 'ticket.updated', ticket: reopened, statusChanged: true });
  return { comment };
}
