import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { id, idParams, optionalBody } from '../../platform/schemas.js';
import { beforeQuery, booleanQuery, limitQuery } from '../../boards/schemas.js';
import { countUnreadNotifications } from '../inbox/count-unread-notifications.js';
import { listNotifications } from '../inbox/list-notifications.js';
import { markAllNotificationsRead } from '../inbox/mark-all-notifications-read.js';
import { markNotificationRead } from '../inbox/mark-notification-read.js';
import { openUnreadStream } from '../inbox/open-unread-stream.js';
import * as s from '../schemas.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const who = (request: { actor: { userId: number; boardIds: number[] | null } }) => ({ userId: request.actor.userId, boardIds: request.actor.boardIds });

/** /api: your notifications (list, read, unread count, live count). Keys and sessions. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { signals, streams } = app.notifications;

  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        tags: ['notifications'],
        summary: 'Your notifications, newest first, paginated with ?before=',
        description:
          'Assignments, @mentions in comments, due dates within a day on cards you are assigned to, and changes to cards you watch, ' +
          'each caused by someone else. Only those on boards you are still a member of (and, with a limited key, on its boards).',
        querystring: z.object({ limit: limitQuery(30, 100), before: beforeQuery('a notification'), unread: booleanQuery.describe('Only unread ones.') }),
        response: { 200: s.notificationPage, ...errors },
      },
    },
    async (request, reply) => {
      const page = await listNotifications({ db: app.db.prisma, who: who(request), ...request.query });
      linkNext(request, reply, 'before', page.nextBefore);
      return page;
    },
  );

  app.get(
    '/notifications/unread-count',
    { schema: { operationId: 'countUnreadNotifications', tags: ['notifications'], summary: 'How many of your notifications are unread', response: { 200: s.unreadCount, ...errors } } },
    async (request) => ({ unread: await countUnreadNotifications({ db: app.db.prisma, who: who(request) }) }),
  );

  app.get(
    '/notifications/events',
    {
      schema: {
        operationId: 'streamUnreadNotifications',
        tags: ['notifications'],
        summary: 'Your unread count, live (text/event-stream)',
        description:
          'Server-sent events: `event: unread` with `data: {"unread": n}` on opening and whenever the count changes; a `: ping` comment every 15 s. ' +
          'Ends when the credential stops working or the server shuts down (EventSource reconnects by itself).',
        response: { 200: { description: 'The stream: one UnreadCount per change.', content: { 'text/event-stream': { schema: s.unreadCount } } }, ...errors },
      },
    },
    async (request, reply) => openUnreadStream({ request, reply, signals, streams }),
  );

  app.post(
    '/notifications/:id/read',
    {
      schema: {
        operationId: 'markNotificationRead',
        tags: ['notifications'],
        summary: 'Mark one notification read (or unread with {"read": false})',
        params: idParams('Notification'),
        body: optionalBody(z.strictObject({ read: z.boolean({ message: 'must be true or false' }).default(true).describe('false: unread again.') })),
        response: { 200: s.notification, ...errors },
      },
    },
    async (request) => markNotificationRead({ db: app.db.prisma, who: who(request), id: request.params.id, read: request.body.read, signals }),
  );

  app.post(
    '/notifications/read-all',
    {
      schema: {
        operationId: 'markAllNotificationsRead',
        tags: ['notifications'],
        summary: 'Mark all your notifications read',
        body: optionalBody(z.strictObject({ upTo: id('The newest notification seen').optional().describe('Only those up to this id (the newest you saw): one that arrived since stays unread.') })),
        response: { 200: z.object({ marked: z.number().int().describe('How many were unread.') }), ...errors },
      },
    },
    async (request) => ({ marked: await markAllNotificationsRead({ db: app.db.prisma, who: who(request), upTo: request.body.upTo, signals }) }),
  );
};
