import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { createBoard } from '../create-board.js';
import { deleteBoard } from '../delete-board.js';
import { getBoardJson } from '../get-board.js';
import { listActivity } from '../list-activity.js';
import { listArchived } from '../list-archived.js';
import { listBoards } from '../list-boards.js';
import { presentBoard, presentList } from '../presenters.js';
import * as s from '../schemas.js';
import { updateBoard } from '../update-board.js';
import { boardContext } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** /boards: list, create, fetch, change, delete; a board's archive and activity. */
export const boardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/boards',
    {
      schema: {
        tags: ['boards'],
        summary: "Your boards (only the key's chosen boards when it is limited)",
        querystring: z.object({
          archived: z
            .enum(['true', 'false'], { message: 'must be true or false' })
            .default('false')
            .transform((v) => v === 'true')
            .describe('true: only archived boards; false (default): only active ones.'),
        }),
        response: { 200: z.object({ boards: z.array(s.board) }), ...errors },
      },
    },
    async (request) => {
      const rows = await listBoards({ db: app.db.prisma, actor: request.actor, archived: request.query.archived });
      return { boards: rows.map(({ board, role }) => presentBoard(board, role)) };
    },
  );

  app.post(
    '/boards',
    {
      schema: {
        tags: ['boards'],
        summary: 'Create a board; you become its admin (not with a key limited to chosen boards: 403)',
        body: z.strictObject({ name: s.boardName, description: s.description.optional() }),
        response: { 201: s.board, ...errors },
      },
    },
    async (request, reply) => {
      const board = await createBoard({ ...boardContext(request), ...request.body });
      return reply.status(201).send(presentBoard(board, 'admin'));
    },
  );

  app.get(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'The whole board: lists with their cards, labels, custom fields, members',
        params: s.boardId,
        response: { 200: s.boardDetail, ...errors },
      },
    },
    async (request, reply) => {
      // Built as JSON text by PostgreSQL (see board-snapshot.ts); a string is sent without re-serialising.
      const json = await getBoardJson({ db: app.db.prisma, actor: request.actor, boardId: request.params.id });
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.patch(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'Rename, describe, archive or restore a board (board admins)',
        params: s.boardId,
        body: z.strictObject({
          name: s.boardName.optional(),
          description: s.description.optional(),
          archived: z.boolean({ message: 'must be true or false' }).optional().describe('true archives the board; it stays reachable by id.'),
        }),
        response: { 200: s.board, ...errors },
      },
    },
    async (request) => {
      const { board, role } = await updateBoard({ ...boardContext(request), boardId: request.params.id, changes: request.body });
      return presentBoard(board, role);
    },
  );

  app.delete(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'Delete a board and everything on it (board admins)',
        params: s.boardId,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteBoard({ ...boardContext(request), boardId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/boards/:id/archived',
    {
      schema: {
        tags: ['boards'],
        summary: "The board's archived lists and cards, most recently changed first",
        params: s.boardId,
        response: { 200: z.object({ lists: z.array(s.list), cards: z.array(s.cardSummary) }), ...errors },
      },
    },
    async (request) => {
      const { lists, cards } = await listArchived({ db: app.db.prisma, actor: request.actor, boardId: request.params.id });
      return { lists: lists.map(presentList), cards };
    },
  );

  app.get(
    '/boards/:id/activity',
    {
      schema: {
        tags: ['boards'],
        summary: "The board's activity, newest first, paginated with ?before=",
        params: s.boardId,
        querystring: z.object({
          limit: z.coerce
            .number({ message: 'must be a whole number from 1 to 200' })
            .int({ message: 'must be a whole number from 1 to 200' })
            .min(1, { message: 'must be a whole number from 1 to 200' })
            .max(200, { message: 'must be a whole number from 1 to 200' })
            .default(50)
            .describe('Page size, 1-200 (default 50).'),
          before: z.coerce
            .number({ message: 'must be an activity id' })
            .int({ message: 'must be an activity id' })
            .min(1, { message: 'must be an activity id' })
            .max(2_147_483_647, { message: 'must be an activity id' })
            .optional()
            .describe('Only activities older than this id: the nextBefore of the previous page.'),
        }),
        response: { 200: s.activities, ...errors },
      },
    },
    async (request) =>
      listActivity({ db: app.db.prisma, actor: request.actor, boardId: request.params.id, ...request.query }),
  );
};
