import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { SESSION_COOKIE, sessionAuthentication } from '../auth.js';
import { AppError } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { createFirstAdmin, setupNeeded } from '../first-run.js';
import { login, logout } from '../login.js';
import { LoginThrottle } from '../login-throttle.js';
import { presentUser } from '../presenters.js';
import * as s from '../schemas.js';

const userResponse = z.object({ user: s.user });

function secureCookies(request: FastifyRequest, config: Config) {
  return request.protocol === 'https' || config.PUBLIC_BASE_URL?.startsWith('https:') === true;
}

/** POST /auth/login, POST /auth/logout, GET /auth/me: the web app's session. */
export const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const throttle = new LoginThrottle();

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
        result = await login({ db: app.db.prisma, email, password, ip: request.ip, ttlHours: config.SESSION_TTL_HOURS });
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
        response: { 201: userResponse, 400: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const { email, password, name } = request.body;
      await createFirstAdmin({ db: app.db.prisma, email, password, name });
      const result = await login({ db: app.db.prisma, email, password, ip: request.ip, ttlHours: config.SESSION_TTL_HOURS });
      setSessionCookie(request, reply, result);
      return reply.status(201).send({ user: presentUser(result.user) });
    },
  );

  function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }) {
    reply.setCookie(SESSION_COOKIE, session.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies(request, config),
      expires: session.expiresAt,
    });
  }

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
