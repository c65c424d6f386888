import fp from 'fastify-plugin';
import { TicketCommentHub } from './comment-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public ticket comments as committed, for this process's open widgets. */
    ticketComments: TicketCommentHub;
  }
}

/** The process's ticket-comment hub (one per app). */
export const ticketCommentsPlugin = fp(async (app) => {
  app.decorate('ticketComments', new TicketCommentHub());
}, { name: 'ticket-comments' });
