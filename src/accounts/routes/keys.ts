import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import { createApiKey, expiryFrom } from '../keys/create-api-key.js';
import { listApiKeys } from '../keys/list-api-keys.js';
import { presentApiKey } from '../presenters.js';
import { revokeApiKey } from '../keys/revoke-api-key.js';
import * as s from '../schemas.js';

const keyId = idParams('Key');

/** /account/keys: a person manages their personal API keys (session only; a key gets 401). */
export const keyRoutes: FastifyPluginAsyncZod = async (app) => {

  app.get(
    '/account/keys',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: ['web session'],
        summary: 'List your API keys (revoked and expired included)',
        response: { 200: z.object({ keys: z.array(s.apiKey) }), 401: errorBody },
      },
    },
    async (request) => ({ keys: (await listApiKeys({ db: app.db.prisma, userId: request.actor.userId })).map(presentApiKey) }),
  );

  app.post(
    '/account/keys',
    {
      schema: {
        operationId: 'createApiKey',
        tags: ['web session'],
        summary: 'Create an API key; the token is in this response only',
        body: z.strictObject({
          name: s.keyName,
          permission: s.keyPermission.default('read'),
          boardIds: s.boardIds.default(null),
          expiresIn: s.expiresIn,
        }),
        response: {
          201: z.object({ key: s.apiKey, token: z.string().describe('The full token (tsk_…): shown once, store it now.') }),
          400: errorBody,
          401: errorBody,
          403: errorBody,
          409: errorBody,
        },
      },
    },
    async (request, reply) => {
      const { name, permission, boardIds, expiresIn } = request.body;
      const { key, token } = await createApiKey({
        db: app.db.prisma,
        userId: request.actor.userId,
        name,
        permission,
        boardIds,
        expiresAt: expiryFrom(expiresIn),
      });
      return reply.status(201).send({ key: presentApiKey(key), token });
    },
  );

  app.delete(
    '/account/keys/:id',
    {
      schema: {
        operationId: 'revokeApiKey',
        tags: ['web session'],
        summary: 'Revoke an API key (it stops working at once)',
        params: keyId,
        response: { 204: z.null(), 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await revokeApiKey({ db: app.db.prisma, userId: request.actor.userId, keyId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
