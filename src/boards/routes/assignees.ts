import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { assignCard } from '../cards/assign-card.js';
import { unassignCard } from '../cards/unassign-card.js';
import * as s from '../schemas.js';
import { cardContext, ifMatch, sendCard } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const noContent = { 204: z.null(), ...errors };

/** Assignees on cards (the OpenAPI tag `assignees`): the board's members a card is assigned to. */
export const assigneeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/cards/:id/members/:userId',
    {
      schema: {
        operationId: 'addCardMember',
        tags: ['assignees'],
        summary: "Assign a member of the card's board to the card (idempotent)",
        description: 'A user who is not a member of the board is 400. Leaving the board unassigns them.',
        params: s.cardMemberParams,
        headers: ifMatch,
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { card } = await assignCard({ ...cardContext(request), cardId: request.params.id, userId: request.params.userId });
      return sendCard(reply, card);
    },
  );

  app.delete(
    '/cards/:id/members/:userId',
    { schema: { operationId: 'removeCardMember', tags: ['assignees'], summary: 'Unassign a user from the card (idempotent)', params: s.cardMemberParams, headers: ifMatch, response: noContent } },
    async (request, reply) => {
      await unassignCard({ ...cardContext(request), cardId: request.params.id, userId: request.params.userId });
      return reply.status(204).send(null);
    },
  );
};
