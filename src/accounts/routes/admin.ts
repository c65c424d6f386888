import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { sessionAuthentication } from '../../platform/auth.js';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import { authorize } from '../policy.js';
import { setUserStatus } from '../set-user-status.js';
import { userStatus } from '../schemas.js';

const userId = idParams('User');
const statusResponse = z.object({ id: z.number().int(), status: userStatus });
const responses = { 200: statusResponse, 401: errorBody, 403: errorBody, 404: errorBody };

/** /admin/users: site administrators block, unblock and delete users (session only). */
export const adminRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.addHook('onRequest', sessionAuthentication(config));
  app.addHook('preHandler', async (request) => authorize(request.actor, 'administer-users'));

  for (const [verb, status] of [['block', 'blocked'], ['unblock', 'active']] as const) {
    app.post(
      `/admin/users/:id/${verb}`,
      { schema: { tags: ['administration'], summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a user`, params: userId, response: responses } },
      async (request) => {
        const user = await setUserStatus({ db: app.db.prisma, userId: request.params.id, status });
        return { id: user.id, status: user.status };
      },
    );
  }

  app.delete(
    '/admin/users/:id',
    {
      schema: {
        tags: ['administration'],
        summary: 'Delete a user: every credential stops; their name stays in history',
        params: userId,
        response: { 204: z.null(), 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await setUserStatus({ db: app.db.prisma, userId: request.params.id, status: 'deleted' });
      return reply.status(204).send(null);
    },
  );
};
