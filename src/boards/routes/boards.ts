import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityPage } from '../activity/activity-types.js';
import { sendEtag } from '../../platform/http/conditional.js';
import { errorBody, etagHeader, linkHeader } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { createBoard } from '../boards/create-board.js';
import { deleteBoard } from '../boards/delete-board.js';
import { getBoardJson } from '../boards/get-board.js';
import { listActivity } from '../boards/list-activity.js';
import { listArchived } from '../list-archived.js';
import { listBoards } from '../boards/list-boards.js';
import { presentBoard, presentList } from '../presenters.js';
import * as s from '../schemas.js';
import { searchCards } from '../search/search-cards.js';
import { decodeSearchCursor, searchAllBoards } from '../search/search-all-boards.js';
import { updateBoard } from '../boards/update-board.js';
import { boardContext, ifNoneMatch } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const boardEtag = etagHeader("a hash of the snapshot's bytes, so it changes whenever anything in it does");

/** /boards: list, create, fetch, change, delete; a board's archive and activity. */
export const boardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/boards',
    {
      schema: {
        operationId: 'listBoards',
        tags: ['boards'],
        summary: "Your boards (only the key's chosen boards when it is limited)",
        querystring: z.object({
          archived: s.booleanQuery.describe('true: only archived boards; false (default): only active ones.'),
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
        operationId: 'createBoard',
        tags: ['boards'],
        summary: 'Create a board; you become its admin (not with a key limited to chosen boards: 403)',
        body: z.strictObject({ name: s.boardName, description: s.description.optional(), color: s.boardColor.optional().describe('Default blue.') }),
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
        operationId: 'getBoard',
        tags: ['boards'],
        summary: 'The whole board: lists with their cards, labels, custom fields, members (304 when If-None-Match holds its current ETag)',
        description:
          'Served from a per-process cache (BOARD_CACHE_MB) while the board does not change: the change stream that feeds ' +
          'GET /boards/{id}/events drops it in every process, so a board read far more often than it changes costs no database ' +
          "work and a 304 none at all. The bytes are the same either way, with the caller's own role.",
        params: s.boardId,
        headers: ifNoneMatch,
        response: { 200: s.boardDetail, 304: z.null(), ...errors },
        responseHeaders: { 200: { etag: boardEtag }, 304: { etag: boardEtag } },
      },
    },
    async (request, reply) => {
      // Built as JSON text by PostgreSQL (see boards/board-snapshot.ts), or kept in memory until the board
      // changes (boards/board-cache.ts); a string is sent without re-serialising.
      const { json, etag } = await getBoardJson({ db: app.db.prisma, actor: request.actor, boardId: request.params.id, cache: app.boardCache });
      // The tag is the bytes' hash: whatever changes in the snapshot (a card, a member's name, your role) changes it.
      if (sendEtag(request, reply, etag)) return reply.send(null);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.patch(
    '/boards/:id',
    {
      schema: {
        operationId: 'updateBoard',
        tags: ['boards'],
        summary: 'Rename, describe, colour, archive or restore a board (board admins)',
        params: s.boardId,
        body: z.strictObject({
          name: s.boardName.optional(),
          description: s.description.optional(),
          color: s.boardColor.optional(),
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
        operationId: 'deleteBoard',
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
        operationId: 'listArchived',
        tags: ['boards'],
        summary: "The board's archived lists and cards, most recently changed first",
        params: s.boardId,
        response: {
          200: z.object({
            lists: z.array(s.list.extend({ cardCount: z.number().int().describe('How many cards the list holds (archived ones included): deleting the list deletes them.') })),
            cards: z.array(s.cardSummary),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { lists, cards } = await listArchived({ db: app.db.prisma, actor: request.actor, boardId: request.params.id });
      return { lists: lists.map(({ list, cardCount }) => ({ ...presentList(list), cardCount })), cards };
    },
  );

  app.get(
    '/boards/:id/search',
    {
      schema: {
        operationId: 'searchBoard',
        tags: ['boards'],
        summary: "Full-text search of the board's cards, best first",
        description:
          'Over titles (weighted highest), descriptions, checklist items and comments, with English stemming and web-search ' +
          'syntax: "a phrase", -excluded, either or other. Archived cards and cards of archived lists are searched too only with archived=true.',
        params: s.boardId,
        querystring: z.object({
          q: z.string({ message: 'must be 1-200 characters' }).trim().min(1, { message: 'must be 1-200 characters' }).max(200, { message: 'must be 1-200 characters' })
            .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' })
            .describe('The query, 1-200 characters.'),
          limit: s.limitQuery(20, 100),
          archived: s.booleanQuery.describe('true: archived cards are searched too; false (default): only active ones.'),
        }),
        response: { 200: z.object({ cards: z.array(s.searchHit) }), ...errors },
      },
    },
    async (request) => ({ cards: await searchCards({ db: app.db.prisma, actor: request.actor, boardId: request.params.id, ...request.query }) }),
  );

  app.get(
    '/search',
    {
      schema: {
        operationId: 'searchAllBoards',
        tags: ['boards'],
        summary: 'Full-text search of the cards of every board you (or the key) can reach, best first, paginated with ?cursor=',
        description:
          'The same search as GET /boards/{id}/search, over every board GET /boards lists (a key limited to chosen boards: ' +
          'those only). Archived boards, archived lists and archived cards are searched too only with archived=true. ' +
          'Pass nextCursor back as ?cursor= with the same q for the next page.',
        querystring: z.object({
          q: s.searchQuery,
          limit: s.limitQuery(20, 100),
          cursor: s.cursorQuery(decodeSearchCursor),
          archived: s.booleanQuery.describe('true: archived boards, lists and cards are searched too; false (default): only active ones.'),
        }),
        response: { 200: s.searchPage, 400: errorBody, 401: errorBody },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const page = await searchAllBoards({ db: app.db.prisma, actor: request.actor, ...request.query });
      linkNext(request, reply, 'cursor', page.nextCursor);
      return page;
    },
  );

  app.get(
    '/boards/:id/activity',
    {
      schema: {
        operationId: 'listActivity',
        tags: ['boards'],
        summary: "The board's activity, newest first, paginated with ?before=",
        params: s.boardId,
        querystring: z.object({
          limit: s.limitQuery(50, 200),
          before: s.beforeQuery('an activity'),
        }),
        response: { 200: activityPage, ...errors },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const page = await listActivity({ db: app.db.prisma, actor: request.actor, boardId: request.params.id, ...request.query });
      linkNext(request, reply, 'before', page.nextBefore);
      return page;
    },
  );
};
