import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { optionalBody } from '../../platform/schemas.js';
import { createCustomField } from '../custom-fields/create-custom-field.js';
import { deleteCustomField } from '../custom-fields/delete-custom-field.js';
import { setFieldValue } from '../custom-fields/set-field-value.js';
import { updateCustomField } from '../custom-fields/update-custom-field.js';
import { presentCustomField } from '../presenters.js';
import * as s from '../schemas.js';
import { boardContext, cardContext, ifMatch, sendCard } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** Custom-field definitions (board admins) and cards' values. */
export const customFieldRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/boards/:id/custom-fields',
    {
      schema: {
        operationId: 'createCustomField',
        tags: ['custom fields'],
        summary: 'Define a custom field on the board (board admins)',
        params: s.boardId,
        body: z.strictObject({ name: s.fieldName, type: s.fieldType, options: s.fieldOptions.optional() }),
        response: { 201: s.customField, ...errors },
      },
    },
    async (request, reply) => {
      const field = await createCustomField({ ...boardContext(request), boardId: request.params.id, ...request.body });
      return reply.status(201).send(presentCustomField(field));
    },
  );

  app.patch(
    '/custom-fields/:id',
    {
      schema: {
        operationId: 'updateCustomField',
        tags: ['custom fields'],
        summary: "Rename a custom field, change its type or its options (board admins)",
        description:
          'Existing values are kept when they fit the new definition, converted where nothing is lost ' +
          '(a number or date becomes text; a numeric text becomes a number), and cleared otherwise: no card keeps an invalid value.',
        params: s.customFieldId,
        body: optionalBody(z.strictObject({ name: s.fieldName.optional(), type: s.fieldType.optional(), options: s.fieldOptions.optional() })),
        response: { 200: s.customField, ...errors },
      },
    },
    async (request) => presentCustomField(await updateCustomField({ ...boardContext(request), fieldId: request.params.id, ...request.body })),
  );

  app.delete(
    '/custom-fields/:id',
    {
      schema: {
        operationId: 'deleteCustomField',
        tags: ['custom fields'],
        summary: "Delete a custom field and every card's value for it (board admins)",
        params: s.customFieldId,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteCustomField({ ...boardContext(request), fieldId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/cards/:id/fields/:fieldId',
    {
      schema: {
        operationId: 'setCardFieldValue',
        tags: ['custom fields'],
        summary: "Set the card's value for a custom field of its board; null clears it",
        description:
          'text: a string of up to 1,000 characters; number: a finite number; date: "YYYY-MM-DD" (kept as is) or an ISO-8601 ' +
          'date-time (stored in UTC); checkbox: true or false; list: one of the options.',
        params: s.cardFieldParams,
        headers: ifMatch,
        body: z.strictObject({
          // A reference to FieldValueInput: a description here would not be kept beside it.
          value: s.fieldValueInput,
        }),
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { card } = await setFieldValue({ ...cardContext(request), cardId: request.params.id, fieldId: request.params.fieldId, value: request.body.value });
      return sendCard(reply, card);
    },
  );
};
