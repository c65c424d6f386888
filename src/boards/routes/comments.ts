import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, linkHeader } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { createComment } from '../comments/create-comment.js';
import { deleteComment } from '../comments/delete-comment.js';
import { listComments } from '../comments/list-comments.js';
import { updateComment } from '../comments/update-comment.js';
import * as s from '../schemas.js';
import { boardContext, cardContext, ifMatch } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** Comments on cards: any member of the board, observers included, may comment. */
export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cards/:id/comments',
    {
      schema: {
        operationId: 'createComment',
        tags: ['comments'],
        summary: 'Comment on a card (observers too)',
        params: s.cardId,
        headers: ifMatch,
        body: z.strictObject({ text: s.commentText }),
        response: { 201: s.comment, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createComment({ ...cardContext(request), cardId: request.params.id, text: request.body.text })),
  );

  app.get(
    '/cards/:id/comments',
    {
      schema: {
        operationId: 'listComments',
        tags: ['comments'],
        summary: "A card's comments, newest first, paginated with ?before=",
        params: s.cardId,
        querystring: z.object({ limit: s.limitQuery(50, 100), before: s.beforeQuery('a comment') }),
        response: { 200: s.commentPage, ...errors },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const page = await listComments({ db: app.db.prisma, actor: request.actor, cardId: request.params.id, ...request.query });
      linkNext(request, reply, 'before', page.nextBefore);
      return page;
    },
  );

  app.patch(
    '/comments/:id',
    {
      schema: {
        operationId: 'updateComment',
        tags: ['comments'],
        summary: 'Edit your comment (its author only)',
        params: s.commentId,
        body: z.strictObject({ text: s.commentText }),
        response: { 200: s.comment, ...errors },
      },
    },
    async (request) => updateComment({ ...boardContext(request), commentId: request.params.id, text: request.body.text }),
  );

  app.delete(
    '/comments/:id',
    {
      schema: { operationId: 'deleteComment', tags: ['comments'], summary: "Delete a comment: its author, or an admin of the board", params: s.commentId, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deleteComment({ ...boardContext(request), commentId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
