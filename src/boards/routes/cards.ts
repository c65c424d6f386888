import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, etagHeader, linkHeader } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { optionalBody } from '../../platform/schemas.js';
import { copyCard } from '../cards/copy-card.js';
import { deleteCard } from '../cards/delete-card.js';
import { getCard } from '../cards/get-card.js';
import { moveCard } from '../cards/move-card.js';
import { updateCard } from '../cards/update-card.js';
import { createCard } from '../cards/create-card.js';
import { decodeDueCursor, listAssignedCards } from '../cards/list-assigned-cards.js';

import * as s from '../schemas.js';
import { boardContext, expectedVersion, ifMatch, ifNoneMatch, sendCard, sendCardIfModified } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const cardEtag = etagHeader('"<version>", the card\'s version, which every change to the card or anything on it moves');

/** /lists/{id}/cards and /cards/{id}: cards, their moves and copies. Card responses carry ETag. */
export const cardRoutes: FastifyPluginAsyncZod = async (app) => {

  app.post(
    '/lists/:id/cards',
    {
      schema: {
        operationId: 'createCardInList',
        tags: ['cards'],
        summary: 'Create a card (at `position`, default the end), with its due date, labels, assignees and field values',
        description:
          'position 0..n, where n is the number of cards in the list; omitted = the end (the same rule as moves). ' +
          'Everything is applied in one transaction and recorded as one card.created; a label, member or custom field ' +
          "that is not the list's board's is 400 naming the field, and nothing is created. Assigning members and setting " +
          'field values need the same role as creating the card (admins and members).',
        params: s.listId,
        body: z.strictObject(s.newCardInput),
        response: { 201: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const card = await createCard({ ...boardContext(request), listId: request.params.id, ...request.body });
      return reply.status(201).send(sendCard(reply, card));
    },
  );

  app.get(
    '/cards',
    {
      schema: {
        operationId: 'listAssignedCards',
        tags: ['cards'],
        summary: 'Cards assigned to you, on every board you (or the key) can reach, soonest due first, paginated with ?cursor=',
        description:
          'Only active cards on active lists of active boards; a key limited to chosen boards lists only theirs. ' +
          'Ordered by due date (soonest first; cards without one last), then by id. ' +
          'Pass nextCursor back as ?cursor= with the same filters for the next page.',
        querystring: z.object({
          member: z
            .enum(['me'], { message: 'must be "me" (the cards assigned to you; the only value supported)' })
            .describe('"me": the cards assigned to the user the credential acts for. Required.'),
          dueBefore: s.dueBeforeQuery,
          limit: s.limitQuery(50, 100),
          cursor: s.cursorQuery(decodeDueCursor),
        }),
        response: { 200: s.cardPage, 400: errorBody, 401: errorBody },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const { member: _me, ...query } = request.query;
      const page = await listAssignedCards({ db: app.db.prisma, actor: request.actor, ...query });
      linkNext(request, reply, 'cursor', page.nextCursor);
      return page;
    },
  );

  app.get(
    '/cards/:id',
    {
      schema: {
        operationId: 'getCard',
        tags: ['cards'],
        summary: 'The full card (304 when If-None-Match holds its current ETag)',
        params: s.cardId,
        headers: ifNoneMatch,
        response: { 200: s.card, 304: z.null(), ...errors },
        responseHeaders: { 200: { etag: cardEtag }, 304: { etag: cardEtag } },
      },
    },
    async (request, reply) =>
      sendCardIfModified(request, reply, await getCard({ db: app.db.prisma, actor: request.actor, cardId: request.params.id })),
  );

  app.patch(
    '/cards/:id',
    {
      schema: {
        operationId: 'updateCard',
        tags: ['cards'],
        summary: 'Edit a card: title, description, due date; archive (true) or restore (false)',
        description:
          'A restored card comes back at its stored position in its list, clamped to the list\'s length. When its list is archived, it comes back ' +
          'at the end of the board\'s first open list instead: the answer\'s listId says where, and the card.updated activity carries ' +
          '`restoredFrom` (the archived list). With no open list on the board the restore is refused (400).',
        params: s.cardId,
        headers: ifMatch,
        body: z.strictObject({
          title: s.cardTitle.optional(),
          description: s.description.optional(),
          dueAt: s.dueAtInput.optional(),
          archived: z.boolean({ message: 'must be true or false' }).optional().describe('true archives the card; false restores it (see the description for where).'),
          version: s.version.optional(),
        }),
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { version, ...changes } = request.body;
      const card = await updateCard({ ...boardContext(request), cardId: request.params.id, changes, expectedVersion: expectedVersion(request, version) });
      return sendCard(reply, card);
    },
  );

  app.post(
    '/cards/:id/move',
    {
      schema: {
        operationId: 'moveCard',
        tags: ['cards'],
        summary: 'Move a card to `position` of a list, on its board or another one you may write to',
        description:
          'position 0..n, where n is the number of cards in the target list besides this one; omitted = the end. ' +
          'On another board its labels are mapped by name and colour (that board\'s label, created there when it has none); field values of ' +
          'the old board and assignees who are not members of the new one are dropped. ' +
          'A key limited to chosen boards cannot move a card to another board (404 outside its boards, 403 to another of them).',
        params: s.cardId,
        headers: ifMatch,
        body: z.strictObject({ listId: s.listIdInBody, position: s.position.optional(), version: s.version.optional() }),
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { version, ...target } = request.body;
      const card = await moveCard({ ...boardContext(request), cardId: request.params.id, ...target, expectedVersion: expectedVersion(request, version) });
      return sendCard(reply, card);
    },
  );

  app.post(
    '/cards/:id/copy',
    {
      schema: {
        operationId: 'copyCard',
        tags: ['cards'],
        summary: "Copy a card (default: to the end of the source card's list)",
        description:
          'The copy has the title (or `title`), description, due date, labels, checklists and field values; not the assignees, comments or attachments. ' +
          'position 0..n, omitted = the end. On another board it keeps its labels as a moved card does: mapped by name and colour (that board\'s label, ' +
          'created there when it has none); field values of the old board are not copied. ' +
          'A key limited to chosen boards cannot copy a card to another board (404 outside its boards, 403 to another of them).',
        params: s.cardId,
        body: optionalBody(z.strictObject({ listId: s.listIdInBody.optional(), position: s.position.optional(), title: s.cardTitle.optional() })),
        response: { 201: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const copy = await copyCard({ ...boardContext(request), cardId: request.params.id, ...request.body });
      return reply.status(201).send(sendCard(reply, copy));
    },
  );

  app.delete(
    '/cards/:id',
    {
      schema: { operationId: 'deleteCard', tags: ['cards'], summary: 'Delete a card (board admins)', params: s.cardId, headers: ifMatch, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deleteCard({ ...boardContext(request), cardId: request.params.id, expectedVersion: expectedVersion(request) });
      return reply.status(204).send(null);
    },
  );
};
