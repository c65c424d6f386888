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
import * as cs from '../cards/schemas.js';
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
        querystring: z.strictObject({ limit: limitQueryString(100, 20), cursor: z.string().max(100).optional() }),
        response: { 200: z.object({ tickets: z.array(s.ticket), nextCursor: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return listTickets({ db, workspaceId: workspace.id, limit: request.query.limit, cursor: request.query.cursor });
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
      return updateTicket({ db, workspaceId: workspace.id, id: request.params.ticketId, changes: request.body, outbox: app.webhooks, cards: app.ticketCards });
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/tickets-board',
    {
      schema: { tags, summary: 'Where the workspace\'s tickets go as cards', params: z.strictObject(workspaceParam), response: { 200: cs.ticketsBoard, ...errors } },
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
        body: cs.ticketsBoardSet,
        response: { 200: cs.ticketsBoard, ...errors, 422: errorBody },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return setTicketsBoard({ db, workspaceId: workspace.id, actor: request.actor, target: request.body });
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/tickets-board',
    {
      schema: { tags, summary: 'Stop sending new tickets to a board (their cards stay)', params: z.strictObject(workspaceParam), response: { 200: cs.ticketsBoard, ...errors } },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return setTicketsBoard({ db, workspaceId: workspace.id, actor: request.actor, target: null });
    },
  );
};
