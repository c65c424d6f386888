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
      if (!(error instanceof Error && error.message.startsWith('currentPassword: is not'))) throttle.release(request.actor.email, request.ip);
      throw error;
    }
  };

  app.patch(
    '/account',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['web session'],
        summary: 'Change your name or e-mail address',
        description:
          'A new e-mail address needs `currentPassword` (400 naming it when missing or wrong); an address another account uses is 409. ' +
          'Sending your current address changes nothing and needs no password.',
        body: z
          .strictObject({ name: s.userName.optional(), email: s.email.optional(), currentPassword: currentPassword.optional() })
          .refine((b) => b.name !== undefined || b.email !== undefined, { message: 'send name or email' }),
        response: { 200: z.object({ user: s.user }), 400: errorBody, 401: errorBody, 409: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { name, email, currentPassword: password } = request.body;
      const change = () => updateAccount({ db: app.db.prisma, userId: request.actor.userId, name, email, currentPassword: password, userChanged });
      // The password is checked only for a new address: only then may its outcome count (or forgive).
      const newEmail = email !== undefined && email !== request.actor.email;
      const user = newEmail ? await checkingPassword(request, change) : await change();
      return { user: presentUser(user) };
    },
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
