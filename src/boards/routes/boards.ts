import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { createBoard } from '../create-board.js';
import { getBoard } from '../get-board.js';
import { listBoards } from '../list-boards.js';
import { presentBoard, presentMember } from '../presenters.js';
import { updateBoard } from '../update-board.js';
import * as s from '../schemas.js';

const common = { 401: errorBody, 403: errorBody };

/** /boards: list, create, fetch. */
export const boardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/boards',
    {
      schema: {
        tags: ['boards'],
        summary: 'Your boards (only the key\'s chosen boards when it is limited)',
        querystring: z.strictObject({
          archived: z
            .enum(['true', 'false'], { message: 'must be true or false' })
            .default('false')
            .transform((v) => v === 'true')
            .describe('true: only archived boards; false (default): only active ones.'),
        }),
        response: { 200: z.object({ boards: z.array(s.board) }), 400: errorBody, ...common },
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
        summary: 'Create a board; you become its admin',
        body: z.strictObject({ name: s.boardName, description: s.description.optional() }),
        response: { 201: s.board, 400: errorBody, ...common },
      },
    },
    async (request, reply) => {
      const board = await createBoard({ db: app.db.prisma, actor: request.actor, ...request.body });
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
        response: { 200: s.boardDetail, 400: errorBody, 404: errorBody, ...common },
      },
    },
    async (request) => {
      const { board, role } = await getBoard({ db: app.db.prisma, actor: request.actor, boardId: request.params.id });
      return { ...presentBoard(board, role), lists: [], labels: [], customFields: [], members: board.members.map(presentMember) };
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
          archived: z.boolean().optional().describe('true archives the board; it stays reachable by id.'),
        }),
        response: { 200: s.board, 400: errorBody, 404: errorBody, ...common },
      },
    },
    async (request) => {
      const { board, role } = await updateBoard({ db: app.db.prisma, actor: request.actor, boardId: request.params.id, changes: request.body });
      return presentBoard(board, role);
    },
  );
};
