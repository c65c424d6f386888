import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { linkOrigin } from '../../platform/public-origin.js';
import type { ReplyMail } from '../replies/reply-mail.js';
import { TicketCommentHub } from './comment-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public ticket comments (and status changes) as committed, for this process's open widgets. */
    ticketComments: TicketCommentHub;
    /** How a team's public reply is mailed: every place that replies (console, API, board) passes this one to createTicketComment. */
    replyMail: ReplyMail;
  }
}

/** The process's ticket-comment hub and reply mail (one per app). */
export const ticketCommentsPlugin = fp<{ config: Config }>(async (app, { config }) => {
  app.decorate('ticketComments', new TicketCommentHub());
  app.decorate('replyMail', { outbox: app.mail, linkOrigin: linkOrigin(config, app.server), delayMs: config.REPLY_MAIL_DELAY_MS });
}, { name: 'ticket-comments', dependencies: ['mail'] });
