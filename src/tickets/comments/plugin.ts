import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Change } from '../../platform/after-commit.js';
import { linkOrigin } from '../../platform/http/public-origin.js';
import type { ReplyMail } from '../replies/reply-mail.js';
import { TICKET_TOPICS } from '../ticket-changes.js';
import { TicketCommentHub } from './comment-hub.js';
import { presentTicketComment } from './create-ticket-comment.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open widgets by ticket: fed by the 'stream' effect and by the other processes' announcements. */
    ticketComments: TicketCommentHub;
    /** How a team's public reply is mailed: every place that replies (console, API, board) passes this one to createTicketComment. */
    replyMail: ReplyMail;
  }
}

/**
 * The tickets' part of the 'stream' effect (platform/after-commit.ts): a public comment or a new
 * status this process committed goes to the ticket's open widgets here. The other processes were
 * told by the change's own transaction (EventBus.announceInTransaction) and show it to theirs.
 */
export function ticketStreamEffect(app: FastifyInstance): (change: Change<'ticket.updated' | 'ticket.commented'>) => void {
  return (change) => {
    if (change.kind === 'ticket.commented') app.ticketComments.streamComment(change.comment);
    else if (change.statusChanged) app.ticketComments.streamStatus(change.ticket.id, change.ticket.status);
  };
}

const announcedComment = z.object({ commentId: z.number().int(), ticketId: z.number().int() });
const announcedStatus = z.object({ ticketId: z.number().int(), status: z.string() });

/**
 * The process's ticket-comment hub and reply mail (one per app), and what other processes on the
 * same PostgreSQL database announce: their tickets' public comments and new statuses, shown to the
 * widgets open here. A comment is read only when a widget here has its ticket open.
 */
export const ticketCommentsPlugin = fp<{ config: Config }>(async (app, { config }) => {
  const hub = new TicketCommentHub();
  app.decorate('ticketComments', hub);
  app.decorate('replyMail', { outbox: app.mail, linkOrigin: linkOrigin(config, app.server), delayMs: config.REPLY_MAIL_DELAY_MS });
  const stops = [
    app.events.onAnnounced(TICKET_TOPICS.comment, (data) => {
      const announced = announcedComment.safeParse(data);
      if (!announced.success || hub.watchers(announced.data.ticketId) === 0) return;
      void app.db.prisma.ticketComment
        .findFirst({ where: { id: announced.data.commentId, ticketId: announced.data.ticketId, public: true } })
        .then((row) => row && hub.streamComment(presentTicketComment(row)))
        .catch((err: unknown) => app.log.warn({ err }, 'a ticket comment announced by another process could not be read'));
    }),
    app.events.onAnnounced(TICKET_TOPICS.status, (data) => {
      const announced = announcedStatus.safeParse(data);
      if (announced.success) hub.streamStatus(announced.data.ticketId, announced.data.status);
    }),
  ];
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
  });
}, { name: 'ticket-comments', dependencies: ['mail', 'db', 'event-bus'] });
