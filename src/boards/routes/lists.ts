import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { getList } from '../lists/get-list.js';
import { createList } from '../lists/create-list.js';
import { deleteList } from '../lists/delete-list.js';
import { listLists } from '../lists/list-lists.js';
import { moveList } from '../lists/move-list.js';
import { updateList } from '../lists/update-list.js';
import { presentList } from '../presenters.js';
import * as s from '../schemas.js';
import { boardContext } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const readErrors = { 400: errorBody, 401: errorBody, 404: errorBody };

/** /boards/{id}/lists and /lists/{id}: the columns of a board. */
export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/boards/:id/lists',
    { schema: { operationId: 'listLists', tags: ['lists'], summary: "The board's non-archived lists by position", params: s.boardId, response: { 200: z.object({ lists: z.array(s.list) }), ...errors } } },
    async (request) => ({ lists: (await listLists({ db: app.db.prisma, actor: request.actor, boardId: request.params.id })).map(presentList) }),
  );

  app.post(
    '/boards/:id/lists',
    {
      schema: {
        operationId: 'createList',
        tags: ['lists'],
        summary: 'Create a list (at `position`, default the end)',
        params: s.boardId,
        body: z.strictObject({ name: s.listName, position: s.position.optional() }),
        response: { 201: s.list, ...errors },
      },
    },
    async (request, reply) => {
      const list = await createList({ ...boardContext(request), boardId: request.params.id, ...request.body });
      return reply.status(201).send(presentList(list));
    },
  );

  app.get(
    '/lists/:id',
    {
      schema: {
        operationId: 'getList',
        tags: ['lists'],
        summary: 'One list (archived ones too; any role on its board)',
        description: 'The list alone; its cards are in GET /boards/{id}. 404 when it is not on a board you can reach.',
        params: s.listId,
        response: { 200: s.list, ...readErrors },
      },
    },
    async (request) => presentList(await getList({ db: app.db.prisma, actor: request.actor, listId: request.params.id })),
  );

  app.patch(
    '/lists/:id',
    {
      schema: {
        operationId: 'updateList',
        tags: ['lists'],
        summary: 'Rename a list, or archive it (true) / restore it at the end of the open lists (false)',
        description: 'An archived list keeps its cards (archived with it from the board); restoring brings them back with it.',
        params: s.listId,
        body: z.strictObject({ name: s.listName.optional(), archived: z.boolean({ message: 'must be true or false' }).optional() }),
        response: { 200: s.list, ...errors },
      },
    },
    async (request) => presentList(await updateList({ ...boardContext(request), listId: request.params.id, ...request.body })),
  );

  app.post(
    '/lists/:id/move',
    {
      schema: {
        operationId: 'moveList',
        tags: ['lists'],
        summary: 'Move a list to `position`, on its board or on another one you may write to (its cards go with it)',
        description:
          'Moved to another board, its cards keep their labels mapped by name and colour: a label of the target board with the same name and ' +
          'colour is used, or one is created there; assignees who are not members of the target board and custom-field values are dropped.',
        params: s.listId,
        body: z.strictObject({ position: s.position, boardId: s.boardIdInBody.optional().describe('Another board to move the list to.') }),
        response: { 200: s.list, ...errors },
      },
    },
    async (request) => presentList(await moveList({ ...boardContext(request), listId: request.params.id, ...request.body })),
  );

  app.delete(
    '/lists/:id',
    {
      schema: {
        operationId: 'deleteList',
        tags: ['lists'],
        summary: 'Delete a list and every card on it, archived ones included (board admins)',
        description: 'The open lists after it close up. The list.deleted activity says how many cards went with it.',
        params: s.listId,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteList({ ...boardContext(request), listId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
