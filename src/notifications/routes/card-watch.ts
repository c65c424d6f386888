import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../platform/openapi.js';
import { cardId } from '../../boards/schemas.js';
import { getCardWatch } from '../watch/get-card-watch.js';
import * as s from '../schemas.js';
import { unwatchCard } from '../watch/unwatch-card.js';
import { watchCard } from '../watch/watch-card.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** /api: watching a card, to be told of every change to it. Keys and sessions. */
export const cardWatchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cards/:id/watch',
    { schema: { operationId: 'getCardWatch', tags: ['notifications'], summary: 'Whether you watch a card', params: cardId, response: { 200: s.watchState, ...errors } } },
    async (request) => getCardWatch({ db: app.db.prisma, actor: request.actor, cardId: request.params.id }),
  );
  app.put(
    '/cards/:id/watch',
    {
      schema: {
        operationId: 'watchCard',
        tags: ['notifications'],
        summary: 'Watch a card: be told of every change to it (any member, observers too)',
        params: cardId,
        response: { 200: s.watchState, ...errors },
      },
    },
    async (request) => watchCard({ db: app.db.prisma, actor: request.actor, cardId: request.params.id }),
  );
  app.delete(
    '/cards/:id/watch',
    { schema: { operationId: 'unwatchCard', tags: ['notifications'], summary: 'Stop watching a card', params: cardId, response: { 200: s.watchState, ...errors } } },
    async (request) => unwatchCard({ db: app.db.prisma, actor: request.actor, cardId: request.params.id }),
  );
};
