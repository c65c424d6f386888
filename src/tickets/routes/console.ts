import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';
import { errorBody } from '../../platform/openapi.js';
import { getTicket } from '../get-ticket.js';
import { listTickets } from '../list-tickets.js';
import { regenerateWorkspaceToken } from '../regenerate-workspace-token.js';
import { limitQueryString } from '../../platform/schemas.js';
import * as s from '../schemas.js';
import { updateTicket } from '../update-ticket.js';
import * as cs from '../comments/schemas.js';
import { createTicketComment } from '../comments/create-ticket-comment.js';
import { listTicketComments } from '../comments/list-ticket-comments.js';
import * as rs from '../replies/schemas.js';
import { supportMetrics } from '../replies/support-metrics.js';
import { badRequest } from '../../platform/errors.js';
import * as cardSchemas from '../cards/schemas.js';
import { presentTicketsBoard, setTicketsBoard } from '../cards/set-tickets-board.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** The workspace token and the tickets, in the support console (session). */
export const ticketConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.prisma;

  app.post(
    '/agent/workspaces/:workspaceId/token',
    {
      schema: {
        tags,
        summary: 'Generate a new workspace token (wst_…); the previous one stops at once',
        params: z.strictObject(workspaceParam),
        response: { 201: z.object({ token: z.string().describe('Shown once.'), prefix: z.string(), createdAt: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { token, prefix, createdAt } = await regenerateWorkspaceToken({ db, workspaceId: workspace.id });
      return reply.status(201).send({ token, prefix, createdAt: createdAt.toISOString() });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/tickets',
    {
      schema: {
        tags,
        summary: 'List the workspace\'s tickets, newest first',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({
          limit: limitQueryString(100, 20),
          cursor: z.string().max(100).optional(),
          conversationId: z.string().max(40).optional().describe('Only the tickets of this conversation (its hand-off): the conversation page shows its reply box.'),
        }),
        response: { 200: z.object({ tickets: z.array(s.ticket), nextCursor: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return listTickets({ db, workspaceId: workspace.id, limit: request.query.limit, cursor: request.query.cursor, conversationId: request.query.conversationId });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/tickets/:ticketId',
    {
      schema: {
        tags,
        summary: 'A ticket of the workspace (its conversationId links the answer conversation)',
        params: z.strictObject({ ...workspaceParam, ticketId: z.string().max(20) }),
        response: { 200: s.ticket, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return getTicket({ db, workspaceId: workspace.id, id: request.params.ticketId });
    },
  );

  app.patch(
    '/agent/workspaces/:workspaceId/tickets/:ticketId',
    {
      schema: {
        tags,
        summary: 'Change a ticket\'s status or priority (owners and admins); a change emits ticket.updated, as PATCH /v1/tickets/{id} does',
        params: z.strictObject({ ...workspaceParam, ticketId: z.string().max(20) }),
        body: s.ticketUpdate,
        response: { 200: s.ticket, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return updateTicket({ db, workspaceId: workspace.id, id: request.params.ticketId, changes: request.body, events: app.events, effects: app.effects });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/tickets/:ticketId/comments',
    {
      schema: {
        tags,
        summary: 'A ticket\'s thread: the team\'s replies, internal notes and the customer\'s answers, oldest first',
        params: z.strictObject({ ...workspaceParam, ticketId: z.string().max(20) }),
        response: { 200: z.object({ comments: z.array(cs.ticketComment) }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { comments: await listTicketComments({ db, workspaceId: workspace.id, ticketId: request.params.ticketId }) };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/tickets/:ticketId/comments',
    {
      schema: {
        tags,
        summary: 'Reply to the customer, or add an internal note (every member: answering customers is the support staff\'s daily work)',
        description: 'The same function as POST /v1/tickets/{id}/comments: the open widget gets a public reply at once, else the customer by mail; `ticket.comment_created`.',
        params: z.strictObject({ ...workspaceParam, ticketId: z.string().max(20) }),
        body: cs.ticketCommentCreate,
        response: { 201: cs.ticketComment, ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'review');
      const { comment } = await createTicketComment({
        db, workspaceId: workspace.id, ticketId: request.params.ticketId, input: request.body, author: 'team', userId: request.actor.userId,
        events: app.events, effects: app.effects, mail: app.replyMail,
      });
      return reply.status(201).send(comment);
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/support-metrics',
    {
      schema: {
        tags,
        summary: 'Conversations resolved by the agent alone versus with a person, and the customers\' satisfaction ratings',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({
          from: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional().describe('Start (inclusive); default 30 days before `to`.'),
          to: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional().describe('End (exclusive); default now.'),
        }),
        response: { 200: rs.supportMetrics, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const to = request.query.to ? new Date(request.query.to) : new Date();
      const from = request.query.from ? new Date(request.query.from) : new Date(to.getTime() - 30 * 86_400_000);
      if (from >= to) throw badRequest('querystring.from: must be before to');
      if (to.getTime() - from.getTime() > 366 * 86_400_000) throw badRequest('querystring.from: the range may span at most 366 days');
      return supportMetrics({ db, workspaceId: workspace.id, from, to });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/tickets-board',
    {
      schema: { tags, summary: 'Where the workspace\'s tickets go as cards', params: z.strictObject(workspaceParam), response: { 200: cardSchemas.ticketsBoard, ...errors } },
    },
    async (request) => presentTicketsBoard(await consoleWorkspace(request, 'read')),
  );

  app.put(
    '/agent/workspaces/:workspaceId/tickets-board',
    {
      schema: {
        tags,
        summary: 'Send the workspace\'s tickets to a board as cards (owners and admins; a board you and the team can write)',
        params: z.strictObject(workspaceParam),
        body: cardSchemas.ticketsBoardSet,
        response: { 200: cardSchemas.ticketsBoard, ...errors, 422: errorBody },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return setTicketsBoard({ db, events: app.events, effects: app.effects, workspaceId: workspace.id, actor: request.actor, target: request.body });
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/tickets-board',
    {
      schema: { tags, summary: 'Stop sending new tickets to a board (their cards stay)', params: z.strictObject(workspaceParam), response: { 200: cardSchemas.ticketsBoard, ...errors } },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return setTicketsBoard({ db, events: app.events, effects: app.effects, workspaceId: workspace.id, actor: request.actor, target: null });
    },
  );
};
