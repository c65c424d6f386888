import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole } from '../access.js';
import { boardId } from '../schemas.js';
import { badRequest } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { ACTIVITY_TYPES, boardEvent } from '../activity/activity-types.js';
import { openStream } from './open-stream.js';

const eventId = /^\d{1,10}$/;

/** GET /boards/{id}/events: the board's changes as server-sent events. */
export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/boards/:id/events',
    {
      schema: {
        operationId: 'streamBoardEvents',
        tags: ['events'],
        summary: 'Live board changes (text/event-stream)',
        description:
          'Every change to the board, by anyone, is one event: `id:` the activity id, `event:` its type ' +
          '(card.moved, …), `data:` the activity JSON (as in /boards/{id}/activity). A `: ping` comment ' +
          'comes every 15 s. Send `Last-Event-ID` (or `?lastEventId=`) to resume: missed events are ' +
          'replayed first. The stream ends when the credential stops working or loses the board, when ' +
          'the board is deleted (after its board.deleted event), or when the server shuts down. ' +
          'A client that stops reading is disconnected rather than waited for. ' +
          `Event types (each an Activity member of that name, e.g. card.moved → CardMovedActivity): ${ACTIVITY_TYPES.join(', ')}.`,
        params: boardId,
        querystring: z.object({ lastEventId: z.string().optional().describe('Same as the Last-Event-ID header.') }),
        headers: z.object({ 'last-event-id': z.string().optional().describe('Resume after this event id.') }).passthrough(),
        response: {
          200: {
            description:
              'The stream (text/event-stream): one BoardEvent per change, its `event:` one of the Activity types and its `data:` the ' +
              'Activity as one line of JSON; a `: ping` comment every 15 s. The schema describes one event, not the body as a whole.',
            content: { 'text/event-stream': { schema: boardEvent } },
          },
          400: errorBody,
          401: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      await requireRole(app.db.prisma, request.actor, request.params.id);
      const given = request.headers['last-event-id'] ?? request.query.lastEventId;
      if (given !== undefined && !eventId.test(given.trim())) throw badRequest('last-event-id: must be an event id');
      reply.hijack();
      await openStream({
        request,
        res: reply.raw,
        hub: app.streams,
        boardId: request.params.id,
        lastEventId: given === undefined ? null : Number(given.trim()),
      });
    },
  );
};
