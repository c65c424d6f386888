import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { optionalBody } from '../../platform/schemas.js';
import { convertItem } from '../checklists/convert-item.js';
import { createChecklist } from '../checklists/create-checklist.js';
import { createItem } from '../checklists/create-item.js';
import { deleteChecklist } from '../checklists/delete-checklist.js';
import { deleteItem } from '../checklists/delete-item.js';
import { renameChecklist } from '../checklists/rename-checklist.js';
import { updateItem } from '../checklists/update-item.js';
import { getChecklist } from '../checklists/get-checklist.js';
import { getItem } from '../checklists/get-item.js';
import { presentChecklist, presentItem } from '../presenters.js';
import * as s from '../schemas.js';
import { boardContext, cardContext, ifMatch, sendCard } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const noContent = { 204: z.null(), ...errors };
const readErrors = { 400: errorBody, 401: errorBody, 404: errorBody };

/** Checklists on cards and their items (admins and members). */
export const checklistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cards/:id/checklists',
    {
      schema: {
        operationId: 'createChecklist',
        tags: ['checklists'],
        summary: "Add a checklist after the card's others",
        params: s.cardId,
        headers: ifMatch,
        body: z.strictObject({ name: s.checklistName }),
        response: { 201: s.checklist, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createChecklist({ ...cardContext(request), cardId: request.params.id, name: request.body.name })),
  );

  app.get(
    '/checklists/:id',
    {
      schema: { operationId: 'getChecklist', tags: ['checklists'], summary: 'One checklist with its items by position (any role on its board)', params: s.checklistId, response: { 200: s.checklist, ...readErrors } },
    },
    async (request) => presentChecklist(await getChecklist({ db: app.db.prisma, actor: request.actor, checklistId: request.params.id })),
  );

  app.get(
    '/items/:id',
    { schema: { operationId: 'getChecklistItem', tags: ['checklists'], summary: 'One checklist item (any role on its board)', params: s.itemId, response: { 200: s.item, ...readErrors } } },
    async (request) => presentItem(await getItem({ db: app.db.prisma, actor: request.actor, itemId: request.params.id })),
  );

  app.patch(
    '/checklists/:id',
    {
      schema: { operationId: 'updateChecklist', tags: ['checklists'], summary: 'Rename a checklist', params: s.checklistId, body: z.strictObject({ name: s.checklistName }), response: { 200: s.checklist, ...errors } },
    },
    async (request) => renameChecklist({ ...boardContext(request), checklistId: request.params.id, name: request.body.name }),
  );

  app.delete(
    '/checklists/:id',
    { schema: { operationId: 'deleteChecklist', tags: ['checklists'], summary: 'Delete a checklist and its items', params: s.checklistId, response: noContent } },
    async (request, reply) => {
      await deleteChecklist({ ...boardContext(request), checklistId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/checklists/:id/items',
    {
      schema: {
        operationId: 'createChecklistItem',
        tags: ['checklists'],
        summary: 'Add an item at the end of the checklist',
        params: s.checklistId,
        body: z.strictObject({ name: s.itemName, checked: s.checked.optional().describe('Default false.') }),
        response: { 201: s.item, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createItem({ ...boardContext(request), checklistId: request.params.id, ...request.body })),
  );

  app.patch(
    '/items/:id',
    {
      schema: {
        operationId: 'updateChecklistItem',
        tags: ['checklists'],
        summary: 'Rename, check or uncheck an item, or move it within its checklist',
        description: 'position: 0..n-1 among the checklist\'s n items; the others shift.',
        params: s.itemId,
        body: optionalBody(z.strictObject({ name: s.itemName.optional(), checked: s.checked.optional(), position: s.position.optional() })),
        response: { 200: s.item, ...errors },
      },
    },
    async (request) => updateItem({ ...boardContext(request), itemId: request.params.id, ...request.body }),
  );

  app.delete(
    '/items/:id',
    { schema: { operationId: 'deleteChecklistItem', tags: ['checklists'], summary: 'Delete an item; the others close up', params: s.itemId, response: noContent } },
    async (request, reply) => {
      await deleteItem({ ...boardContext(request), itemId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/items/:id/convert',
    {
      schema: {
        operationId: 'convertChecklistItem',
        tags: ['checklists'],
        summary: "Turn an item into a card right after the item's card in its list; the item is removed",
        params: s.itemId,
        response: { 201: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const card = await convertItem({ ...boardContext(request), itemId: request.params.id });
      return reply.status(201).send(sendCard(reply, card));
    },
  );
};
