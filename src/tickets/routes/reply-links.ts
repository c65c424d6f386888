import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { v1ErrorBody } from '../../platform/openapi.js';
import { createTicketComment } from '../comments/create-ticket-comment.js';
import * as cs from '../comments/schemas.js';
import { openReplyLink } from '../replies/open-reply-link.js';
import { rateTicket } from '../replies/rate-ticket.js';
import * as s from '../replies/schemas.js';
import { ticketThread } from '../replies/ticket-thread.js';

const tags = ['ticket replies'];
const tokenParam = z.strictObject({ token: z.string().max(100).describe('The token of the link in a reply mail (`trl_…`).') });
const errors = {
  400: v1ErrorBody.describe('invalid_request: the message names the field at fault.'),
  404: v1ErrorBody.describe('link_not_valid: unknown, mistyped or expired (30 days) link; the message says so in words a customer reads.'),
};

/**
 * The page a reply mail links to (`/reply/trl_…`) reads and writes through these: no account, the
 * link's token is the proof (random, stored hashed, 30 days). The customer reads the thread,
 * answers (as the requester, through createTicketComment: the ticket opens again) and rates.
 */
export const replyLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.prisma;

  app.get(
    '/v1/replies/:token',
    { schema: { operationId: 'getReplyThread', tags, security: [], summary: 'The ticket\'s thread as its customer sees it', params: tokenParam, response: { 200: s.replyThread, ...errors } } },
    async (request) => {
      const ticket = await openReplyLink({ db, token: request.params.token });
      const [thread, workspace] = await Promise.all([
        ticketThread({ db, ticket }),
        db.workspace.findUniqueOrThrow({ where: { id: ticket.workspaceId }, select: { name: true } }),
      ]);
      return { ticket: { id: ticket.id, subject: ticket.subject, status: ticket.status }, team: workspace.name, ...thread };
    },
  );

  app.post(
    '/v1/replies/:token/comments',
    {
      schema: {
        operationId: 'answerReply',
        tags,
        security: [],
        summary: 'The customer answers: a comment by the requester (the ticket opens again)',
        params: tokenParam,
        body: s.replyAnswer,
        response: { 201: cs.ticketComment, ...errors },
      },
    },
    async (request, reply) => {
      const ticket = await openReplyLink({ db, token: request.params.token });
      const { comment } = await createTicketComment({
        db, workspaceId: ticket.workspaceId, ticketId: String(ticket.id), input: { body: request.body.body, public: true }, author: 'requester', events: app.events, effects: app.effects, mail: null,
      });
      return reply.status(201).send(comment);
    },
  );

  app.post(
    '/v1/replies/:token/rating',
    {
      schema: {
        operationId: 'rateReply',
        tags,
        security: [],
        summary: '"How did we do?" (1-5 and a comment), once per ticket, once it is solved',
        params: tokenParam,
        body: s.ratingCreate,
        response: { 201: s.rating, ...errors, 409: v1ErrorBody.describe('not_solved, or already_rated.') },
      },
    },
    async (request, reply) => {
      const ticket = await openReplyLink({ db, token: request.params.token });
      return reply.status(201).send(await rateTicket({ db, ticket, input: request.body }));
    },
  );
};
