import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import { disconnect } from '../disconnect.js';
import { listConnections } from '../list-connections.js';
import { presentConnection } from '../presenters.js';
import * as s from '../schemas.js';
import { connectorUrls } from '../urls.js';

/** /account/connections: the assistants a person connected (registered in the web backend's session scope: keys and connector tokens get 401). */
export const connectionRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const { resource } = connectorUrls(config);

  app.get(
    '/account/connections',
    {
      schema: {
        tags: ['web session'],
        summary: 'List your connected apps (assistants connected through /mcp), most recent first',
        response: { 200: s.connectionList, 401: errorBody },
      },
    },
    async (request) => ({
      connectorUrl: resource,
      connections: (await listConnections({ db: app.db.prisma, userId: request.actor.userId })).map(presentConnection),
    }),
  );

  app.delete(
    '/account/connections/:id',
    {
      schema: {
        tags: ['web session'],
        summary: 'Disconnect an app: its access and refresh tokens stop at the next request',
        params: idParams('Connection'),
        response: { 204: z.null(), 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await disconnect({ db: app.db.prisma, userId: request.actor.userId, connectionId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
