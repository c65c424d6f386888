import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import { authorize } from '../policy.js';
import { createUser, type SignUp } from '../create-user.js';
import { listUsers } from '../list-users.js';
import { setUserStatus } from '../set-user-status.js';
import * as s from '../schemas.js';
import { userStatus } from '../schemas.js';

const userId = idParams('User');
const statusResponse = z.object({ id: z.number().int(), status: userStatus });
const adminUser = s.user.extend({ status: userStatus, createdAt: z.string() }).describe('User (administration view)');
const presentAdminUser = (u: { id: number; email: string; name: string; siteAdmin: boolean; status: 'active' | 'blocked' | 'deleted'; createdAt: Date }) => ({
  id: u.id, email: u.email, name: u.name, siteAdmin: u.siteAdmin, status: u.status, createdAt: u.createdAt.toISOString(),
});
const responses = { 200: statusResponse, 401: errorBody, 403: errorBody, 404: errorBody };

/**
 * /admin/users: site administrators block, unblock and delete users (session only, app.ts). `signUp`: what
 * other modules do when a user is created (app.ts hands in the boards' invitations).
 */
export const adminRoutes: FastifyPluginAsyncZod<{ signUp: SignUp }> = async (app, { signUp }) => {
  app.addHook('preHandler', async (request) => authorize(request.actor, 'administer-users'));

  app.get(
    '/admin/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['administration'],
        summary: 'List every user (deleted ones included)',
        response: { 200: z.object({ users: z.array(adminUser) }), 401: errorBody, 403: errorBody },
      },
    },
    async () => ({ users: (await listUsers(app.db.prisma)).map(presentAdminUser) }),
  );

  app.post(
    '/admin/users',
    {
      schema: {
        operationId: 'createUser',
        tags: ['administration'],
        summary: 'Create a user (409 when the address is taken)',
        body: z.strictObject({ email: s.email, password: s.password, name: s.userName.optional(), siteAdmin: z.boolean().default(false) }),
        response: { 201: z.object({ user: adminUser }), 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const user = await createUser({ db: app.db.prisma, signUp, ...request.body });
      return reply.status(201).send({ user: presentAdminUser(user) });
    },
  );

  for (const [verb, status] of [['block', 'blocked'], ['unblock', 'active']] as const) {
    app.post(
      `/admin/users/:id/${verb}`,
      { schema: { operationId: `${verb}User`, tags: ['administration'], summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a user`, params: userId, response: responses } },
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
        operationId: 'deleteUser',
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
