import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { optionalBody } from '../../platform/schemas.js';
import { unsubscribeFromMail } from '../mail/unsubscribe-from-mail.js';

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
    async (request) => ({ unsubscribed: true as const, ...(await unsubscribeFromMail({ db: app.db.prisma, token: request.params.token })) }),
  );
};
