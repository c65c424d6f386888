import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { forbidden } from '../platform/errors.js';
import { errorBody } from '../platform/openapi.js';

import { consoleWorkspace, workspaceParam } from './console-context.js';
import { email as emailSchema } from '../accounts/schemas.js';
import { id } from '../platform/schemas.js';
import { createWorkspace } from './create-workspace.js';
import { addWorkspaceMember, changeWorkspaceMember, listWorkspaceMembers, presentWorkspaceMember } from './members.js';
import { listWorkspaces } from './list-workspaces.js';
import { presentWorkspace } from './presenters.js';
import * as s from './schemas.js';

/** /agent/workspaces: the support workspaces a person belongs to (session only). */
export const workspaceRoutes: FastifyPluginAsyncZod<{ config: Pick<Config, 'WORKSPACE_CREATORS'> }> = async (app, { config }) => {

  app.get(
    '/agent/workspaces',
    {
      schema: {
        tags: ['support console'],
        summary: 'List the workspaces you belong to, with your role',
        response: { 200: z.object({ workspaces: z.array(s.workspace) }), 401: errorBody },
      },
    },
    async (request) => ({ workspaces: (await listWorkspaces({ db: app.db.prisma, userId: request.actor.userId })).map(presentWorkspace) }),
  );

  app.post(
    '/agent/workspaces',
    {
      schema: {
        tags: ['support console'],
        summary: 'Create a workspace; you are its owner',
        description: 'WORKSPACE_CREATORS=site_admins keeps this to site administrators (403 for anyone else); the default lets every signed-in user.',
        body: z.strictObject({ name: s.workspaceName }),
        response: { 201: s.workspace, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request, reply) => {
      if (config.WORKSPACE_CREATORS === 'site_admins' && !request.actor.siteAdmin) {
        throw forbidden('only site administrators may create workspaces on this server (WORKSPACE_CREATORS=site_admins)');
      }
      const workspace = await createWorkspace({ db: app.db.prisma, name: request.body.name, ownerId: request.actor.userId });
      return reply.status(201).send(presentWorkspace({ ...workspace, role: 'owner' }));
    },
  );

  const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
  const member = z
    .object({
      userId: z.number().int(),
      name: z.string(),
      email: z.string(),
      role: s.workspaceRole,
      active: z.boolean().describe('false: the account is blocked or deleted.'),
      createdAt: z.string().describe('When they joined (ISO-8601 UTC).'),
    })
    .describe('WorkspaceMember');
  const memberParams = z.strictObject({
    ...workspaceParam,
    userId: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), id('User')),
  });

  app.get(
    '/agent/workspaces/:workspaceId',
    {
      schema: {
        tags: ['support console'],
        summary: 'A workspace with your role and its token\'s prefix (never the token)',
        params: z.strictObject(workspaceParam),
        response: {
          200: s.workspace.extend({
            token: z.object({ prefix: z.string(), createdAt: z.string() }).nullable().describe('null until a token is generated.'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const token = workspace.tokenPrefix && workspace.tokenCreatedAt ? { prefix: workspace.tokenPrefix, createdAt: workspace.tokenCreatedAt.toISOString() } : null;
      return { ...presentWorkspace(workspace), token };
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/members',
    {
      schema: {
        tags: ['support console'],
        summary: 'The workspace\'s members and their roles',
        params: z.strictObject(workspaceParam),
        response: { 200: z.object({ members: z.array(member) }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { members: (await listWorkspaceMembers({ db: app.db.prisma, workspaceId: workspace.id })).map(presentWorkspaceMember) };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/members',
    {
      schema: {
        tags: ['support console'],
        summary: 'Add a registered user (owners and admins; only an owner adds an owner)',
        params: z.strictObject(workspaceParam),
        body: z.strictObject({ email: emailSchema, role: s.workspaceRole.default('member') }),
        response: { 201: member, ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const added = await addWorkspaceMember({ db: app.db.prisma, workspaceId: workspace.id, actorRole: workspace.role, ...request.body });
      return reply.status(201).send(presentWorkspaceMember(added));
    },
  );

  app.patch(
    '/agent/workspaces/:workspaceId/members/:userId',
    {
      schema: {
        tags: ['support console'],
        summary: 'Change a member\'s role (the last owner stays: 409)',
        params: memberParams,
        body: z.strictObject({ role: s.workspaceRole }),
        response: { 200: member, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const changed = await changeWorkspaceMember({
        db: app.db.prisma,
        workspaceId: workspace.id,
        actorId: request.actor.userId,
        userId: request.params.userId,
        role: request.body.role,
      });
      return presentWorkspaceMember(changed!);
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/members/:userId',
    {
      schema: {
        tags: ['support console'],
        summary: 'Remove a member (the last owner stays: 409)',
        params: memberParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      await changeWorkspaceMember({ db: app.db.prisma, workspaceId: workspace.id, actorId: request.actor.userId, userId: request.params.userId, role: null });
      return reply.status(204).send(null);
    },
  );
};
