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
      const ticket = await updateTicket({ db, workspaceId: workspace.id, id: request.params.ticketId, changes: request.body });
      app.webhooks.wake();
      return ticket;
    },
  );
};
