import type { PrismaClient } from '../../platform/db.js';
import type { Effects } from '../../platform/after-commit.js';
import { changeWithOutbox } from '../../webhooks/outbox.js';
import { getTicket } from '../get-ticket.js';
import { presentTicket } from '../presenters.js';
import { recordReplyMail, type ReplyMail } from '../replies/reply-mail.js';
import type { TicketCommentHub } from './comment-hub.js';
import type { TicketCommentView } from './schemas.js';

export function presentTicketComment(c: { id: number; ticketId: number; body: string; public: boolean; author: 'team' | 'requester'; createdAt: Date }): TicketCommentView {
  return { id: c.id, ticketId: c.ticketId, body: c.body, public: c.public, author: c.author, createdAt: c.createdAt.toISOString() };
}

/**
 * A comment on a ticket — the one function behind the console's reply box, POST /v1/tickets/{id}/comments
 * and the customer's answers in the widget. Emits `ticket.comment_created` in the same transaction; a
 * customer's answer sets a ticket that is not open back to open (`ticket.updated`). A team's public
 * reply also records its mail to the requester, due `mail.delayMs` later unless an open widget
 * acknowledges it (replies/reply-mail.ts). After the commit a public comment goes to the ticket's
 * open widgets (hub); how many were listening is returned.
 */
export async function createTicketComment({ db, workspaceId, ticketId, input, author, userId, effects, hub, mail }: {
  db: PrismaClient;
  workspaceId: number;
  ticketId: string;
  input: { body: string; public: boolean };
  author: 'team' | 'requester';
  userId?: number | undefined;
  effects: Effects;
  hub?: TicketCommentHub | undefined;
  /**
   * How a team's public reply is mailed (app.replyMail); null only where no team reply can be
   * written (the customer's own answers). Required so that no place that replies forgets the mail.
   */
  mail: ReplyMail | null;
}): Promise<{ comment: TicketCommentView; listeners: number }> {
  const ticket = await getTicket({ db, workspaceId, id: ticketId });
  let mailed = false;
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
        const reopened = presentTicket(await tx.ticket.update({ where: { id: ticket.id }, data: { status: 'open' } }));
        await record({ workspaceId, type: 'ticket.updated', data: { ...reopened, previous: { status: current.status } }, at: new Date(reopened.updatedAt) });
      }
    }
    return view;
  });
  // Woken now: it finds the mail not yet due and looks again when it is (the mail worker's own timer).
  if (mailed) effects.committed({ kind: 'mail.queued' });
  const listeners = comment.public && hub ? hub.publish(comment) : 0;
  return { comment, listeners };
}
