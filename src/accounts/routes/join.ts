import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { forbidden } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { acceptJoinLink } from '../join/accept-join-link.js';
import type { SignUp } from '../users/create-user.js';
import { findJoinLink } from '../join/find-join-link.js';
import { requestPasswordReset, RESET_LINK_MINUTES, RESETS_PER_WINDOW } from '../join/request-password-reset.js';
import { joinUrl } from '../join/join-url.js';
import { registerResetQueue, ResetQueue } from '../join/reset-queue.js';
import { openSession } from '../sessions/open-session.js';
import { presentJoinLink, presentUser } from '../presenters.js';
import * as s from '../schemas.js';
import { setSessionCookieFor } from './auth.js';
import type { UserChanged } from '../users/user-changed.js';

const tokenParams = z.strictObject({ token: z.string().max(100, { message: 'not a link token' }).describe('The token of the link (inv_… or set_…).') });
const linkErrors = { 404: errorBody.describe('No such link: never made, used, replaced or revoked.'), 410: errorBody.describe('The link expired; the message says whom to ask.') };

/**
 * /auth/join/{token}: invitation links (a board admin invited an address without an account) and
 * account set-up links (a site admin created a user without a password). The web page /join/{token}
 * shows what the link opens, then the person chooses a name and password and is signed in.
 */
export const joinRoutes: FastifyPluginAsyncZod<{ config: Config; signUp: SignUp; userChanged: UserChanged }> = async (app, { config, signUp, userChanged }) => {
  // "Forgot password" work, after the answer; on close the queued requests are finished (half the
  // shutdown budget), before the database closes; what is left then is dropped.
  const resets = new ResetQueue(app.log);
  registerResetQueue(app, resets);
  app.addHook('preClose', async () => resets.close(config.SHUTDOWN_TIMEOUT_MS / 2));

  app.get(
    '/auth/join/:token',
    {
      schema: {
        operationId: 'getJoinLink',
        tags: ['web session'],
        summary: 'What an invitation or set-up link opens (no session needed: the link is the credential)',
        security: [],
        params: tokenParams,
        response: { 200: z.object({ link: s.joinLink }), 400: errorBody, ...linkErrors, 429: errorBody },
      },
    },
    async (request) => ({ link: presentJoinLink(await findJoinLink({ db: app.db.prisma, token: request.params.token })) }),
  );

  app.post(
    '/auth/password-reset',
    {
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['web session'],
        summary: 'Forgot password: mail a link that sets a new password (the answer never says whether the address has an account)',
        description:
          `An active account's address is mailed a single-use link (\`/join/set_…\`, valid ${RESET_LINK_MINUTES} minutes); using it sets a new password and ends every session. ` +
          `The answer is the same 202 for any address, sent before the address is even looked up (the lookup and the mail follow in the background, so the time taken says nothing either), and past ${RESETS_PER_WINDOW} mails an hour to an address or account no more are sent. ` +
          'A server that sends no mail answers 403: a site administrator makes the link there (POST /admin/users/{id}/setup-link, or `npm run admin -- user reset-link --email E`).',
        security: [],
        body: z.strictObject({ email: s.email }),
        response: { 202: z.object({ message: z.string().describe('What happens next, the same whatever the address.') }), 400: errorBody, 403: errorBody, 429: errorBody },
      },
      // Answer first, work after, so the time taken does not tell who has an account: awaiting the
      // lookup, link and mail made an existing address answer several times slower than an unknown one. Once the 202 is sent, the work is
      // queued for every address alike, in memory: a request lost to a crash is acceptable (the
      // person was promised nothing for sure, and asks again).
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 202) return;
        const { email } = request.body;
        resets.push(() => requestPasswordReset({ db: app.db.prisma, mail: app.mail, effects: app.effects, email, linkFor: (token) => joinUrl(app.server, config, token) }));
      },
    },
    async (_request, reply) => {
      // The same for every address, so it stays synchronous (as does the 400 of the schema).
      if (!app.mail.enabled) throw forbidden('email: this server sends no mail; ask a site administrator for a link to set a new password');
      return reply.status(202).send({ message: `If an account uses this address, a link to set a new password is on its way. It works for ${RESET_LINK_MINUTES} minutes.` });
    },
  );

  app.post(
    '/auth/join/:token',
    {
      schema: {
        operationId: 'acceptJoinLink',
        tags: ['web session'],
        summary: 'Use a link: choose your name and password, and sign in (sets the session cookie)',
        description:
          'An invitation creates the account, a member of every board its address was invited to, and answers the board to open (`boardId`); ' +
          'a set-up link sets the name and password of the account a site admin made (its other sessions end). The link is used up. ' +
          'An invited address that has an account by now: 409 (sign in instead).',
        security: [],
        params: tokenParams,
        body: z.strictObject({ name: s.userName, password: s.password }),
        response: { 201: z.object({ user: s.user, boardId: z.number().int().nullable().describe('The board invited to; null for a set-up link.') }), 400: errorBody, ...linkErrors, 409: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { user, boardId } = await acceptJoinLink({ db: app.db.prisma, signUp, userChanged, token: request.params.token, ...request.body });
      const session = await openSession({ db: app.db.prisma, userId: user.id, ip: request.ip, userAgent: request.headers['user-agent'], ttlHours: config.SESSION_TTL_HOURS });
      setSessionCookieFor(request, reply, config, session);
      return reply.status(201).send({ user: presentUser(user), boardId });
    },
  );
};
