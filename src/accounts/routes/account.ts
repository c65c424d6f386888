import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { badRequest } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { changePassword } from '../users/change-password.js';
import { endSessions } from '../sessions/end-sessions.js';
import { listSessions } from '../sessions/list-sessions.js';
import type { LoginThrottle } from '../sessions/login-throttle.js';
import { presentSession, presentUser } from '../presenters.js';
import * as s from '../schemas.js';
import { updateAccount } from '../users/update-account.js';
import { confirmEmailChange } from '../email/confirm-email-change.js';
import { requestEmailChange } from '../email/request-email-change.js';
import { joinUrl } from '../join/join-url.js';
import type { UserChanged } from '../users/user-changed.js';

const currentPassword = z.string().min(1, { message: 'is required' }).max(256).describe('Your current password.');
const sessionParams = z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be a session id from GET /account/sessions' }).describe('Session id.') });

/**
 * /account: a person's own name, e-mail address, password and sessions (session only; a key gets 401).
 * `userChanged`: what other modules do after a rename (app.ts hands in the board cache's).
 */
export const accountRoutes: FastifyPluginAsyncZod<{ config: Config; throttle: LoginThrottle; userChanged: UserChanged }> = async (app, { config, throttle, userChanged }) => {
  // A wrong current password counts as a failed login of the account, on the login's own counters
  // (a stolen session must not guess it freely, here or there).
  const checkingPassword = async <T>(request: { ip: string; actor: { email: string } }, fn: () => Promise<T>) => {
    throttle.begin(request.actor.email, request.ip);
    try {
      const result = await fn();
      throttle.succeeded(request.actor.email, request.ip);
      return result;
    } catch (error) {
      if (!(error instanceof Error && /^currentPassword: .*not your current password$/.test(error.message))) throttle.release(request.actor.email, request.ip);
      throw error;
    }
  };

  app.patch(
    '/account',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['web session'],
        summary: 'Change your name, time zone or clock at once; ask for a new e-mail address, confirmed from that address',
        description:
          'A name changes at once. A new e-mail address does not: it needs `currentPassword` (400 naming it when missing or wrong), ' +
          'and a link is mailed to the new address; the account signs in with it only once that link is opened while signed in to this ' +
          'account (`POST /account/email/confirm`), and the old address is then told. `emailChange` says where the link went. ' +
          'An address another account uses, or one with a pending board invitation, is 409. A server that sends no mail (no SMTP) ' +
          'answers 403: there only a site administrator changes addresses. Sending your current address changes nothing and needs no password. ' +
          '`timeZone` (an IANA name such as `Europe/Paris`, or null for the browser\'s) and `hour12` (true, false, or null for the locale\'s) ' +
          'set how the web app shows your dates; an unknown zone is 400.',
        body: z
          .strictObject({
            name: s.userName.optional(),
            email: s.email.optional(),
            currentPassword: currentPassword.optional(),
            timeZone: s.timeZone.optional(),
            hour12: z.boolean().nullable().optional().describe("The web app's clock: true 12-hour, false 24-hour, null the locale's."),
          })
          .refine((b) => b.name !== undefined || b.email !== undefined || b.timeZone !== undefined || b.hour12 !== undefined, {
            message: 'send name, email, timeZone or hour12',
          }),
        response: {
          200: z.object({
            user: s.user,
            emailChange: z
              .object({
                email: z.string().describe('The new address the confirmation link was mailed to.'),
                expiresAt: z.string().describe('When the link stops working, ISO-8601 UTC.'),
              })
              .nullable()
              .describe('null: no new address was asked for.'),
          }),
          400: errorBody,
          401: errorBody,
          403: errorBody,
          409: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => {
      const { name, email, currentPassword: password, timeZone, hour12 } = request.body;
      const userId = request.actor.userId;
      // The password is checked only for a new address: only then may its outcome count (or forgive).
      const emailChange =
        email !== undefined && email !== request.actor.email
          ? await checkingPassword(request, () =>
              requestEmailChange({ db: app.db.prisma, mail: app.mail, effects: app.effects, userId, newEmail: email, currentPassword: password, linkFor: (token) => joinUrl(app.server, config, token) }),
            )
          : null;
      const user =
        name !== undefined || timeZone !== undefined || hour12 !== undefined
          ? await updateAccount({ db: app.db.prisma, userId, name, timeZone, hour12, userChanged })
          : await app.db.prisma.user.findUniqueOrThrow({ where: { id: userId } });
      return { user: presentUser(user), emailChange: emailChange && { email: emailChange.email, expiresAt: emailChange.expiresAt.toISOString() } };
    },
  );

  app.post(
    '/account/email/confirm',
    {
      schema: {
        operationId: 'confirmEmailChange',
        tags: ['web session'],
        summary: 'Confirm a new e-mail address with the link mailed to it',
        description:
          'The token of the link (`eml_…`, from `/join/eml_…`) mailed by `PATCH /account`. Only the account that asked may confirm it (another: 404). ' +
          'The account then signs in with the new address, and a mail tells the old one. Unknown, used or replaced link: 404; expired: 410; ' +
          'another account took the address meanwhile: 409.',
        body: z.strictObject({ token: z.string().min(1).max(100).describe('The link token, eml_….') }),
        response: { 200: z.object({ user: s.user }), 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody, 410: errorBody },
      },
    },
    async (request) => ({
      user: presentUser(await confirmEmailChange({ db: app.db.prisma, effects: app.effects, userId: request.actor.userId, token: request.body.token, userChanged })),
    }),
  );

  app.put(
    '/account/password',
    {
      schema: {
        operationId: 'changePassword',
        tags: ['web session'],
        summary: 'Change your password; your other sessions end, this one stays',
        description: 'A wrong `currentPassword` is 400 naming it, and counts as a failed sign-in of the account (429 after too many).',
        body: z.strictObject({ currentPassword, newPassword: s.password }),
        response: { 200: z.object({ endedSessions: z.number().int().describe('How many other sessions ended.') }), 400: errorBody, 401: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { currentPassword: current, newPassword } = request.body;
      if (current === newPassword) throw badRequest('newPassword: must differ from your current password');
      return checkingPassword(request, () =>
        changePassword({ db: app.db.prisma, userId: request.actor.userId, currentPassword: current, newPassword, keepSessionId: request.actor.sessionId! }),
      );
    },
  );

  app.get(
    '/account/sessions',
    {
      schema: {
        operationId: 'listSessions',
        tags: ['web session'],
        summary: 'Your signed-in sessions, most recently active first',
        response: { 200: z.object({ sessions: z.array(s.session) }), 401: errorBody },
      },
    },
    async (request) => ({
      sessions: (await listSessions({ db: app.db.prisma, userId: request.actor.userId })).map((row) => presentSession(row, request.actor.sessionId!)),
    }),
  );

  app.post(
    '/account/sessions/end-others',
    {
      schema: {
        operationId: 'endOtherSessions',
        tags: ['web session'],
        summary: 'Sign out everywhere else: end every session but this one',
        response: { 200: z.object({ ended: z.number().int().describe('How many sessions ended.') }), 401: errorBody },
      },
    },
    async (request) => ({ ended: await endSessions({ db: app.db.prisma, userId: request.actor.userId, currentSessionId: request.actor.sessionId! }) }),
  );

  app.delete(
    '/account/sessions/:id',
    {
      schema: {
        operationId: 'endSession',
        tags: ['web session'],
        summary: 'End one of your other sessions (the one you use: 400, sign out instead; not yours or gone: 404)',
        params: sessionParams,
        response: { 204: z.null(), 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await endSessions({ db: app.db.prisma, userId: request.actor.userId, currentSessionId: request.actor.sessionId!, sessionId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
