import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import * as cs from '../cards/schemas.js';
import { ticketComment } from '../comments/schemas.js';

const tags = ['cards'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Tickets as cards, on the board API: the ticket behind a card, and a reply to its customer written on the card. */
export const ticketCardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cards/:id/ticket',
    {
      schema: {
        operationId: 'getCardTicket',
        tags,
        summary: 'The ticket a card shows (tickets as cards), or null',
        params: idParams('Card'),
        response: { 200: cs.cardTicket, ...errors },
      },
    },
    async (request) => ({ ticket: await app.ticketCards.ticketOfCard({ actor: request.actor, cardId: request.params.id }) }),
  );

  app.post(
    '/cards/:id/ticket/replies',
    {
      schema: {
        operationId: 'replyFromCard',
        tags,
        summary: 'Reply to the customer from a ticket\'s card (board members and admins)',
        description:
          'A public comment on the card\'s ticket, as POST /v1/tickets/{id}/comments makes (the customer\'s open widget, else mail; ' +
          '`ticket.comment_created`), and the same text as your comment on the card.',
        params: idParams('Card'),
        body: cs.cardReply,
        response: { 201: ticketComment, ...errors },
      },
    },
    async (request, reply) => {
      const comment = await app.ticketCards.replyFromCard({ actor: request.actor, cardId: request.params.id, body: request.body.body, mail: app.replyMail });
      return reply.status(201).send(comment);
    },
  );
};
