import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { SESSION_COOKIE, sessionAuthentication } from '../credentials/auth.js';
import { AppError } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { createFirstAdmin, setupNeeded } from '../sessions/first-run.js';
import { login, logout } from '../sessions/login.js';
import { resolveSession } from '../credentials/resolve-credential.js';
import type { LoginThrottle } from '../sessions/login-throttle.js';
import { presentUser } from '../presenters.js';
import * as s from '../schemas.js';

const userResponse = z.object({ user: s.user });

function secureCookies(request: FastifyRequest, config: Config) {
  return request.protocol === 'https' || config.PUBLIC_BASE_URL?.startsWith('https:') === true;
}

/** The HttpOnly, SameSite=Strict session cookie (Secure over https or behind an https PUBLIC_BASE_URL). */
export function setSessionCookieFor(request: FastifyRequest, reply: FastifyReply, config: Config, session: { token: string; expiresAt: Date }) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(request, config),
    expires: session.expiresAt,
  });
}

/** POST /auth/login, POST /auth/logout, GET /auth/me: the web app's session. */
export const authRoutes: FastifyPluginAsyncZod<{ config: Config; throttle: LoginThrottle }> = async (app, { config, throttle }) => {

  app.post(
    '/auth/login',
    {
      schema: {
        operationId: 'login',
        tags: ['web session'],
        summary: 'Log in; sets the HttpOnly session cookie',
        security: [],
        body: z.strictObject({ email: s.email, password: z.string().min(1, { message: 'is required' }).max(256) }),
        response: { 200: userResponse, 400: errorBody, 401: errorBody, 403: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      throttle.begin(email, request.ip);
      let result: Awaited<ReturnType<typeof login>>;
      try {
        result = await login({ db: app.db.prisma, email, password, ip: request.ip, userAgent: request.headers['user-agent'], ttlHours: config.SESSION_TTL_HOURS });
      } catch (error) {
        if (!(error instanceof AppError && error.status === 401)) throttle.release(email, request.ip);
        throw error;
      }
      throttle.succeeded(email, request.ip);
      setSessionCookie(request, reply, result);
      return { user: presentUser(result.user) };
    },
  );

  app.get(
    '/auth/setup',
    {
      schema: {
        operationId: 'getSetup',
        tags: ['web session'],
        summary: 'Whether the site still needs its first administrator (no user exists yet)',
        security: [],
        response: { 200: z.object({ needed: z.boolean() }), 429: errorBody },
      },
    },
    async () => ({ needed: await setupNeeded(app.db.prisma) }),
  );

  app.post(
    '/auth/setup',
    {
      schema: {
        operationId: 'setUp',
        tags: ['web session'],
        summary: 'First run: create the first site administrator and log in (409 once any user exists)',
        security: [],
        body: z.strictObject({ email: s.email, password: s.password, name: s.userName.optional() }),
        response: { 201: userResponse, 400: errorBody, 409: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { email, password, name } = request.body;
      // Throttled like a login: a 409 here counts as a failed attempt from the address (and from the
      // address only: it guesses nobody's password, so it must not spend the account's allowance).
      throttle.begin(null, request.ip);
      let result: Awaited<ReturnType<typeof login>>;
      try {
        await createFirstAdmin({ db: app.db.prisma, email, password, name });
        result = await login({ db: app.db.prisma, email, password, ip: request.ip, userAgent: request.headers['user-agent'], ttlHours: config.SESSION_TTL_HOURS });
      } catch (error) {
        if (!(error instanceof AppError && error.status === 409)) throttle.release(null, request.ip);
        throw error;
      }
      throttle.release(null, request.ip);
      setSessionCookie(request, reply, result);
      return reply.status(201).send({ user: presentUser(result.user) });
    },
  );

  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }) =>
    setSessionCookieFor(request, reply, config, session);

  app.get(
    '/auth/session',
    {
      schema: {
        operationId: 'getSession',
        tags: ['web session'],
        summary: 'Who is signed in, if anyone: 200 with user null for a visitor (no 401), and whether the site needs its first administrator',
        description:
          'For pages that work signed in or not (the web app asks this first): an absent, expired or ended session is `user: null`, never an error. ' +
          'GET /auth/me is the same for a session that must exist (401 otherwise).',
        security: [],
        response: {
          200: z.object({
            user: s.user.nullable(),
            setupNeeded: z.boolean().describe('No user exists yet: the first-run page (POST /auth/setup) applies.'),
            mail: z.boolean().describe('The server sends mail (SMTP is set up): password resets and new e-mail addresses go by mail; without it, a site administrator makes the links.'),
          }),
          429: errorBody,
        },
      },
    },
    async (request) => {
      const token = request.cookies[SESSION_COOKIE];
      const session = token ? await resolveSession({ db: app.db.prisma, token }) : null;
      if (session) return { user: presentUser({ ...session, id: session.userId }), setupNeeded: false, mail: app.mail.enabled };
      return { user: null, setupNeeded: await setupNeeded(app.db.prisma), mail: app.mail.enabled };
    },
  );

  app.register(async (authed) => {
    authed.addHook('onRequest', sessionAuthentication(config));

    authed.post(
      '/auth/logout',
      { schema: { operationId: 'logout', tags: ['web session'], summary: 'End this session', response: { 204: z.null(), 401: errorBody } } },
      async (request: FastifyRequest, reply: FastifyReply) => {
        await logout({ db: app.db.prisma, sessionId: request.actor.sessionId! });
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.status(204).send(null);
      },
    );

    authed.get(
      '/auth/me',
      { schema: { operationId: 'getMe', tags: ['web session'], summary: 'The logged-in user', response: { 200: userResponse, 401: errorBody } } },
      async (request) => ({ user: presentUser({ ...request.actor, id: request.actor.userId }) }),
    );
  });
};
