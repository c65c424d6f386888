import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { optionalBody } from '../../platform/schemas.js';
import { addCardLabel } from '../labels/add-card-label.js';
import { createLabel } from '../labels/create-label.js';
import { deleteLabel } from '../labels/delete-label.js';
import { removeCardLabel } from '../labels/remove-card-label.js';
import { updateLabel } from '../labels/update-label.js';
import { getLabel } from '../labels/get-label.js';
import { presentLabel } from '../presenters.js';
import * as s from '../schemas.js';
import { boardContext, cardContext, ifMatch, sendCard } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const noContent = { 204: z.null(), ...errors };
const readErrors = { 400: errorBody, 401: errorBody, 404: errorBody };

/** Labels of a board, and labels on cards. */
export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/boards/:id/labels',
    {
      schema: {
        operationId: 'createLabel',
        tags: ['labels'],
        summary: 'Create a label on the board (admins and members)',
        params: s.boardId,
        body: z.strictObject({ name: s.labelName, color: s.labelColor.optional(), shade: s.labelShade.optional() }),
        response: { 201: s.label, ...errors },
      },
    },
    async (request, reply) => {
      const label = await createLabel({ ...boardContext(request), boardId: request.params.id, name: request.body.name, color: request.body.color ?? null, shade: request.body.shade });
      return reply.status(201).send(presentLabel(label));
    },
  );

  app.get(
    '/labels/:id',
    {
      schema: {
        operationId: 'getLabel',
        tags: ['labels'],
        summary: 'One label (any role on its board)',
        params: s.labelId,
        response: { 200: s.label, ...readErrors },
      },
    },
    async (request) => presentLabel(await getLabel({ db: app.db.prisma, actor: request.actor, labelId: request.params.id })),
  );

  app.patch(
    '/labels/:id',
    {
      schema: {
        operationId: 'updateLabel',
        tags: ['labels'],
        summary: 'Rename or recolour a label',
        description: 'A color given without shade keeps the shade; color null drops it.',
        params: s.labelId,
        body: optionalBody(z.strictObject({ name: s.labelName.optional(), color: s.labelColor.optional(), shade: s.labelShade.optional() })),
        response: { 200: s.label, ...errors },
      },
    },
    async (request) => presentLabel(await updateLabel({ ...boardContext(request), labelId: request.params.id, ...request.body })),
  );

  app.delete(
    '/labels/:id',
    { schema: { operationId: 'deleteLabel', tags: ['labels'], summary: 'Delete a label; it is removed from every card', params: s.labelId, response: noContent } },
    async (request, reply) => {
      await deleteLabel({ ...boardContext(request), labelId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/cards/:id/labels/:labelId',
    {
      schema: {
        operationId: 'addCardLabel',
        tags: ['labels'],
        summary: "Put a label of the card's board on the card (idempotent)",
        description: 'A label of another board, or one that does not exist, is 400.',
        params: s.cardLabelParams,
        headers: ifMatch,
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { card } = await addCardLabel({ ...cardContext(request), cardId: request.params.id, labelId: request.params.labelId });
      return sendCard(reply, card);
    },
  );

  app.delete(
    '/cards/:id/labels/:labelId',
    { schema: { operationId: 'removeCardLabel', tags: ['labels'], summary: 'Take a label off the card (idempotent)', params: s.cardLabelParams, headers: ifMatch, response: noContent } },
    async (request, reply) => {
      await removeCardLabel({ ...cardContext(request), cardId: request.params.id, labelId: request.params.labelId });
      return reply.status(204).send(null);
    },
  );
};
