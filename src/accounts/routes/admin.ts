import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { z } from 'zod';
import { errorBody } from '../../platform/openapi.js';
import { idParams } from '../../platform/schemas.js';
import { authorize } from '../credentials/policy.js';
import { createSetupLink, SETUP_LINK_DAYS } from '../join/create-setup-link.js';
import { createUser, type SignUp } from '../users/create-user.js';
import { joinUrl } from '../join/join-url.js';
import { listUsers } from '../users/list-users.js';
import { setUserStatus } from '../users/set-user-status.js';
import { setUserEmail } from '../email/set-user-email.js';
import { listMail } from '../../mail/list-mail.js';
import type { UserChanged } from '../users/user-changed.js';
import * as s from '../schemas.js';
import { userStatus } from '../schemas.js';

const userId = idParams('User');
const statusResponse = z.object({ id: z.number().int(), status: userStatus });
const adminUser = s.user
  .extend({ status: userStatus, createdAt: z.string(), passwordSet: z.boolean().describe('false: created without a password, not yet set up through its link (or deleted).') })
  .describe('User (administration view)');
const presentStatus = (user: { id: number; status: 'active' | 'blocked' | 'deleted' }) => ({ id: user.id, status: user.status });

const presentAdminUser = (u: { id: number; email: string; name: string; siteAdmin: boolean; status: 'active' | 'blocked' | 'deleted'; createdAt: Date; passwordHash: string | null }) => ({
  id: u.id, email: u.email, name: u.name, siteAdmin: u.siteAdmin, status: u.status, createdAt: u.createdAt.toISOString(), passwordSet: u.passwordHash !== null,
});
const responses = { 200: statusResponse, 401: errorBody, 403: errorBody, 404: errorBody };
const setupLink = z
  .object({
    url: z.string().describe('The link to hand to the user (/join/set_…); shown in this response only, stored as a hash.'),
    expiresAt: z.string().describe('When it stops working, ISO-8601 UTC.'),
  })
  .meta({ id: 'SetupLink', description: 'An account set-up link.' });

/**
 * /admin/users: site administrators block, unblock and delete users (session only, app.ts). `signUp`: what
 * other modules do when a user is created (app.ts hands in the boards' invitations); `userChanged`, when
 * one is blocked, unblocked or deleted (the board cache's invalidation).
 */
export const adminRoutes: FastifyPluginAsyncZod<{ config: Config; signUp: SignUp; userChanged: UserChanged }> = async (app, { config, signUp, userChanged }) => {
  app.addHook('preHandler', async (request) => authorize(request.actor, 'administer-users'));

  app.get(
    '/admin/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['administration'],
        summary: 'List every user (deleted ones included)',
        response: { 200: z.object({ users: z.array(adminUser) }), 401: errorBody, 403: errorBody },
      },
    },
    async () => ({ users: (await listUsers(app.db.prisma)).map(presentAdminUser) }),
  );

  app.post(
    '/admin/users',
    {
      schema: {
        operationId: 'createUser',
        tags: ['administration'],
        summary: 'Create a user (409 when the address is taken); without a password, with a set-up link to hand over',
        description: `Without \`password\`, the user cannot sign in until they open \`setupLink.url\` (valid ${SETUP_LINK_DAYS} days, shown in this response only) and choose their name and password there.`,
        body: z.strictObject({ email: s.email, password: s.password.optional(), name: s.userName.optional(), siteAdmin: z.boolean().default(false) }),
        response: { 201: z.object({ user: adminUser, setupLink: setupLink.nullable().describe('null when a password was given.') }), 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const { password, ...rest } = request.body;
      const user = await createUser({ db: app.db.prisma, signUp, ...rest, password, withoutPassword: password === undefined });
      const link = password === undefined ? await createSetupLink({ db: app.db.prisma, userId: user.id }) : null;
      return reply.status(201).send({ user: presentAdminUser(user), setupLink: link && { url: joinUrl(app.server, config, link.token), expiresAt: link.expiresAt.toISOString() } });
    },
  );

  app.post(
    '/admin/users/:id/setup-link',
    {
      schema: {
        operationId: 'createSetupLink',
        tags: ['administration'],
        summary: 'A set-up link for an active user: they choose a new password (and name) with it',
        description: `For a user created without a password, or one who lost theirs. Valid ${SETUP_LINK_DAYS} days; a new link replaces the previous one. Using it ends the user's sessions. Not an active user: 404.`,
        params: userId,
        response: { 201: z.object({ setupLink }), 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const link = await createSetupLink({ db: app.db.prisma, userId: request.params.id });
      return reply.status(201).send({ setupLink: { url: joinUrl(app.server, config, link.token), expiresAt: link.expiresAt.toISOString() } });
    },
  );

  app.get(
    '/admin/mail',
    {
      schema: {
        operationId: 'listMail',
        tags: ['administration'],
        summary: 'The mail delivery log, newest first (100): queued, sent or failed, and why',
        description:
          'Every mail the server wrote (invitations, password resets, e-mail confirmations, notification batches), with its state: `pending` (queued, or waiting ' +
          'for a retry at `nextAttemptAt` after `lastError`), `sent`, or `failed` (the SMTP server refused it with a 5xx, or the retries ran ' +
          'out; `lastError` is its answer). The bodies are not kept once a mail is settled: they held working links. `mailEnabled`: SMTP is set up.',
        querystring: z.strictObject({ status: z.enum(['pending', 'sent', 'failed']).optional().describe('Only mail in this state.') }),
        response: {
          200: z.object({
            mailEnabled: z.boolean(),
            mail: z.array(
              z.object({
                id: z.number().int(),
                kind: z.string().describe('invitation, password-reset, email-change, email-changed, notifications (a batch of notifications).'),
                recipient: z.string(),
                subject: z.string(),
                status: z.enum(['pending', 'sent', 'failed']),
                attempts: z.number().int().describe('Hand-overs to the SMTP server so far.'),
                lastError: z.string().nullable().describe("The last failure: the SMTP server's answer (`550 …`) or the connection error."),
                nextAttemptAt: z.string().nullable().describe('Pending only: when it is tried next.'),
                sentAt: z.string().nullable(),
                createdAt: z.string(),
              }),
            ),
          }),
          400: errorBody,
          401: errorBody,
          403: errorBody,
        },
      },
    },
    async (request) => ({
      mailEnabled: app.mail.enabled,
      mail: (await listMail({ db: app.db.prisma, status: request.query.status })).map((m) => ({
        ...m,
        nextAttemptAt: m.status === 'pending' ? m.nextAttemptAt.toISOString() : null,
        sentAt: m.sentAt?.toISOString() ?? null,
        createdAt: m.createdAt.toISOString(),
      })),
    }),
  );

  app.put(
    '/admin/users/:id/email',
    {
      schema: {
        operationId: 'setUserEmail',
        tags: ['administration'],
        summary: "Change a user's e-mail address at once (no confirmation mail)",
        description:
          'How addresses change on a server that sends no mail, where users cannot change their own (PATCH /account answers 403 there). ' +
          'The user signs in with the new address from now on; a confirmation they asked for is dropped. Taken by another account: 409.',
        params: userId,
        body: z.strictObject({ email: s.email }),
        response: { 200: z.object({ user: adminUser }), 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    async (request) => ({ user: presentAdminUser(await setUserEmail({ db: app.db.prisma, userId: request.params.id, email: request.body.email, userChanged })) }),
  );

  app.post(
    '/admin/users/:id/block',
    { schema: { operationId: 'blockUser', tags: ['administration'], summary: 'Block a user', params: userId, response: responses } },
    async (request) => presentStatus(await setUserStatus({ db: app.db.prisma, userId: request.params.id, status: 'blocked', userChanged })),
  );

  app.post(
    '/admin/users/:id/unblock',
    { schema: { operationId: 'unblockUser', tags: ['administration'], summary: 'Unblock a user', params: userId, response: responses } },
    async (request) => presentStatus(await setUserStatus({ db: app.db.prisma, userId: request.params.id, status: 'active', userChanged })),
  );

  app.delete(
    '/admin/users/:id',
    {
      schema: {
        operationId: 'deleteUser',
        tags: ['administration'],
        summary: 'Delete a user: every credential stops; their name stays in history',
        params: userId,
        response: { 204: z.null(), 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await setUserStatus({ db: app.db.prisma, userId: request.params.id, status: 'deleted', userChanged });
      return reply.status(204).send(null);
    },
  );
};
