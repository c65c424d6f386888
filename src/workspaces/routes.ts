import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { sessionAuthentication } from '../platform/auth.js';
import { errorBody } from '../platform/openapi.js';
import { createWorkspace } from './create-workspace.js';
import { listWorkspaces } from './list-workspaces.js';
import { presentWorkspace } from './presenters.js';
import * as s from './schemas.js';

/** /agent/workspaces: the support workspaces a person belongs to (session only). */
export const workspaceRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.addHook('onRequest', sessionAuthentication(config));

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
        body: z.strictObject({ name: s.workspaceName }),
        response: { 201: s.workspace, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request, reply) => {
      const workspace = await createWorkspace({ db: app.db.prisma, name: request.body.name, ownerId: request.actor.userId });
      return reply.status(201).send(presentWorkspace({ ...workspace, role: 'owner' }));
    },
  );
};
