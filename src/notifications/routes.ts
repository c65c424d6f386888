import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../platform/openapi.js';
import { linkNext } from '../platform/pagination.js';
import { id, idParams, optionalBody } from '../platform/schemas.js';
import { beforeQuery, booleanQuery, cardId, limitQuery } from '../boards/schemas.js';
import { listNotifications, markAllRead, markRead, unreadCount } from './list.js';
import * as s from './schemas.js';
import { getMailSettings, unsubscribe, updateMailSettings } from './settings.js';
import { openNotificationStream } from './stream.js';
import { isWatching, setWatching } from './watch.js';
import { notFound } from '../platform/errors.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const who = (request: { actor: { userId: number; boardIds: number[] | null } }) => ({ userId: request.actor.userId, boardIds: request.actor.boardIds });

/** /api: your notifications (list, read, unread count, live count) and watching cards. Keys and sessions. */
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
    async (request) => ({ unread: await unreadCount({ db: app.db.prisma, who: who(request) }) }),
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
    async (request, reply) => openNotificationStream({ request, reply, signals, streams }),
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
    async (request) => {
      const done = await markRead({ db: app.db.prisma, who: who(request), id: request.params.id, read: request.body.read });
      signals.changed([request.actor.userId]);
      return done;
    },
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
    async (request) => {
      const marked = await markAllRead({ db: app.db.prisma, who: who(request), upTo: request.body.upTo });
      signals.changed([request.actor.userId]);
      return { marked };
    },
  );

  app.get(
    '/cards/:id/watch',
    { schema: { operationId: 'getCardWatch', tags: ['notifications'], summary: 'Whether you watch a card', params: cardId, response: { 200: s.watchState, ...errors } } },
    async (request) => isWatching(app.db.prisma, request.actor, request.params.id),
  );
  app.put(
    '/cards/:id/watch',
    {
      schema: {
        operationId: 'watchCard',
        tags: ['notifications'],
        summary: 'Watch a card: be told of every change to it (any member, observers too)',
        params: cardId,
        response: { 200: s.watchState, ...errors },
      },
    },
    async (request) => setWatching(app.db.prisma, request.actor, request.params.id, true),
  );
  app.delete(
    '/cards/:id/watch',
    { schema: { operationId: 'unwatchCard', tags: ['notifications'], summary: 'Stop watching a card', params: cardId, response: { 200: s.watchState, ...errors } } },
    async (request) => setWatching(app.db.prisma, request.actor, request.params.id, false),
  );
};

/** The web backend (session only): which notifications are mailed to you, on the account page. */
export const notificationSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/notifications',
    { schema: { operationId: 'getNotificationMailSettings', tags: ['account'], summary: 'Which notifications are mailed to you', response: { 200: s.mailSettings, 401: errorBody } } },
    async (request) => getMailSettings(app.db.prisma, request.actor.userId),
  );
  app.put(
    '/account/notifications',
    {
      schema: {
        operationId: 'setNotificationMailSettings',
        tags: ['account'],
        summary: 'Choose which notifications are mailed to you (the kinds left out stay as they are)',
        body: s.mailSettings.partial().strict(),
        response: { 200: s.mailSettings, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => updateMailSettings(app.db.prisma, request.actor.userId, request.body),
  );
};

/**
 * `POST /unsubscribe/{token}`: the unsubscribe link of notification mail, without signing in and
 * from any origin: the web page `/unsubscribe/<token>` calls it when its button is clicked (never
 * on opening: mail scanners open links), and mail clients POST `List-Unsubscribe=One-Click` to it
 * (RFC 8058), form-encoded.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post(
    '/unsubscribe/:token',
    {
      schema: {
        operationId: 'unsubscribeFromNotificationMail',
        tags: ['account'],
        summary: 'Stop all notification mail (the link in each mail; no sign-in)',
        description: 'Turns every kind of notification mail off for the owner of the token. RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` (form-encoded).',
        security: [],
        params: z.object({ token: z.string().max(64).describe('The token of the unsubscribe link.') }),
        body: optionalBody(z.object({ 'List-Unsubscribe': z.string().optional() })),
        response: { 200: z.object({ unsubscribed: z.literal(true), email: z.string().describe('The address that gets no more notification mail.') }), 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const done = await unsubscribe(app.db.prisma, request.params.token);
      if (!done) {
        throw notFound(
          "token: this unsubscribe link is not known: it may be from an old mail (only the link in a person's latest notification mail is kept for good) or from an account that was deleted. Sign in to choose which notifications are mailed to you on your account page.",
        );
      }
      return { unsubscribed: true as const, email: done.email };
    },
  );
};
