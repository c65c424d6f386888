import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../platform/openapi.js';
import { getMailSettings } from '../mail/get-mail-settings.js';
import * as s from '../schemas.js';
import { setMailSettings } from '../mail/set-mail-settings.js';

/** The web backend (session only): which notifications are mailed to you, on the account page. */
export const mailSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/notifications',
    { schema: { operationId: 'getNotificationMailSettings', tags: ['account'], summary: 'Which notifications are mailed to you', response: { 200: s.mailSettings, 401: errorBody } } },
    async (request) => getMailSettings({ db: app.db.prisma, userId: request.actor.userId }),
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
    async (request) => setMailSettings({ db: app.db.prisma, userId: request.actor.userId, change: request.body }),
  );
};
