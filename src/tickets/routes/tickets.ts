import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkHeader, v1ErrorBody } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { queryInteger } from '../../platform/schemas.js';
import { createTicket } from '../create-ticket.js';
import { workspaceTokenAuthentication } from '../gate.js';
import { getTicket } from '../get-ticket.js';
import { listTickets } from '../list-tickets.js';
import * as s from '../schemas.js';
import * as cs from '../comments/schemas.js';
import { createTicketComment } from '../comments/create-ticket-comment.js';
import { listTicketComments } from '../comments/list-ticket-comments.js';
import { updateTicket } from '../update-ticket.js';

const tags = ['tickets (beta)'];
const security = [{ workspaceToken: [] }];
const errors = {
  400: v1ErrorBody.describe('invalid_request: the message names the field at fault.'),
  401: v1ErrorBody.describe('invalid_token'),
  404: v1ErrorBody.describe('not_found: no such ticket in the token\'s workspace.'),
  503: v1ErrorBody.describe('unavailable'),
};
const idParam = z.strictObject({ id: z.string().max(40).describe('Ticket id.') });

/** /v1/tickets (beta): tickets of the workspace whose token calls. */
export const ticketRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', workspaceTokenAuthentication);
  const db = app.db.prisma;

  app.post(
    '/v1/tickets',
    {
      schema: {
        operationId: 'createTicket',
        tags,
        security,
        summary: 'Create a ticket',
        description:
          'Send an `Idempotency-Key` header (1-255 characters) to retry safely: the same key and body within 24 hours return ' +
          'the first response (with `Idempotent-Replayed: true`) and create nothing; the same key with another body is 409 ' +
          '`idempotency_conflict`. `conversationId` links an answer-API conversation of the same workspace as context.',
        headers: z.object({
          'idempotency-key': z.string().min(1, { message: 'must be 1-255 characters' }).max(255, { message: 'must be 1-255 characters' })
            .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' }).optional(),
        }),
        body: s.ticketCreate,
        response: { 201: s.ticket, ...errors, 409: v1ErrorBody.describe('idempotency_conflict'), 413: v1ErrorBody, 415: v1ErrorBody },
      },
    },
    async (request, reply) => {
      const created = await createTicket({ db, workspaceId: request.ticketWorkspaceId, input: request.body, idempotencyKey: request.headers['idempotency-key'], effects: app.effects });
      if (created.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(created.status).send(created.ticket);
    },
  );

  app.get(
    '/v1/tickets',
    {
      schema: {
        operationId: 'listTickets',
        tags,
        security,
        summary: 'List tickets, newest first',
        querystring: z.strictObject({
          limit: queryInteger({ min: 1, max: 100, message: 'must be a whole number from 1 to 100', digits: /^\d+$/ }).default(20).describe('1-100, default 20.'),
          cursor: z.string().max(100).optional().describe('nextCursor of the previous page (opaque).'),
        }),
        response: { 200: z.object({ tickets: z.array(s.ticket), nextCursor: z.string().nullable() }), ...errors },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const page = await listTickets({ db, workspaceId: request.ticketWorkspaceId, limit: request.query.limit, cursor: request.query.cursor });
      linkNext(request, reply, 'cursor', page.nextCursor);
      return page;
    },
  );

  app.get(
    '/v1/tickets/:id',
    { schema: { operationId: 'getTicket', tags, security, summary: 'Get a ticket', params: idParam, response: { 200: s.ticket, ...errors } } },
    async (request) => getTicket({ db, workspaceId: request.ticketWorkspaceId, id: request.params.id }),
  );

  app.patch(
    '/v1/tickets/:id',
    {
      schema: {
        operationId: 'updateTicket',
        tags,
        security,
        summary: 'Change a ticket\'s status or priority',
        params: idParam,
        body: s.ticketUpdate,
        response: { 200: s.ticket, ...errors, 413: v1ErrorBody, 415: v1ErrorBody },
      },
    },
    async (request) => {
      return updateTicket({ db, workspaceId: request.ticketWorkspaceId, id: request.params.id, changes: request.body, events: app.events, effects: app.effects });
    },
  );

  app.post(
    '/v1/tickets/:id/comments',
    {
      schema: {
        operationId: 'createTicketComment',
        tags,
        security,
        summary: 'Reply to the customer, or add an internal note',
        description:
          'A public comment (the default) reaches the customer\'s open widget at once, else by mail; `public: false` is an ' +
          'internal note the customer never sees. Emits `ticket.comment_created`. A public reply is mailed to the requester ' +
          'REPLY_MAIL_DELAY_MS (10 s) later unless the customer\'s open widget acknowledged it; the mail quotes it and links to a ' +
          'page of ours (`/reply/trl_…`, 30 days, no account) where the customer reads the thread, answers and rates the help.',
        params: idParam,
        body: cs.ticketCommentCreate,
        response: { 201: cs.ticketComment, ...errors, 413: v1ErrorBody, 415: v1ErrorBody },
      },
    },
    async (request, reply) => {
      const { comment } = await createTicketComment({
        db, workspaceId: request.ticketWorkspaceId, ticketId: request.params.id, input: request.body, author: 'team', events: app.events, effects: app.effects, mail: app.replyMail,
      });
      return reply.status(201).send(comment);
    },
  );

  app.get(
    '/v1/tickets/:id/comments',
    {
      schema: {
        operationId: 'listTicketComments',
        tags,
        security,
        summary: 'A ticket\'s comments, oldest first (internal notes included)',
        params: idParam,
        response: { 200: z.object({ comments: z.array(cs.ticketComment) }), ...errors },
      },
    },
    async (request) => ({ comments: await listTicketComments({ db, workspaceId: request.ticketWorkspaceId, ticketId: request.params.id }) }),
  );
};
