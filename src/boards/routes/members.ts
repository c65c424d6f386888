import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { joinUrl } from '../../accounts/join/join-url.js';
import { email } from '../../accounts/schemas.js';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/openapi.js';
import { listInvitations } from '../members/list-invitations.js';
import { addMember } from '../members/add-member.js';
import { listMembers } from '../members/list-members.js';
import { removeMember } from '../members/remove-member.js';
import { updateMember } from '../members/update-member.js';
import { presentMember, presentPendingInvitation } from '../presenters.js';
import { renewInvitationLink } from '../members/renew-invitation-link.js';
import { revokeInvitation } from '../members/revoke-invitation.js';
import * as s from '../schemas.js';
import { boardContext } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };

/** /boards/{id}/members: who is on a board and with which role (admins manage them). */
export const memberRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/boards/:id/members',
    { schema: { operationId: 'listMembers', tags: ['members'], summary: "The board's members", params: s.boardId, response: { 200: z.object({ members: z.array(s.member) }), ...errors } } },
    async (request) => ({ members: (await listMembers({ db: app.db.prisma, actor: request.actor, boardId: request.params.id })).map(presentMember) }),
  );

  app.post(
    '/boards/:id/members',
    {
      schema: {
        operationId: 'addMember',
        tags: ['members'],
        summary: 'Add a registered user (201), or invite an unknown address (202)',
        description: `Board admins only. An address without an account gets an invitation valid 14 days, with a link (\`url\`, shown in this response only; mailed to the address too when the server sends mail, \`mailed\`) to hand to the invitee: they open it, choose their name and password, and join the board. It also becomes a membership when the address registers otherwise; at most INVITES_PER_DAY (default ${config.INVITES_PER_DAY}) new addresses per inviter per day, then 429. Already a member: 409. An address with a pending invitation: 409 naming its role (an invitation is never changed silently: revoke it with DELETE /boards/{id}/invitations/{email}, then invite again); an expired invitation is replaced.`,
        params: s.boardId,
        body: z.strictObject({ email, role: s.role }),
        response: { 201: s.member, 202: z.object({ invitation: s.invitationWithLink }), ...errors, 429: errorBody },
      },
    },
    async (request, reply) => {
      const mailer = { mail: app.mail, linkFor: (token: string) => joinUrl(app.server, config, token) };
      const result = await addMember({ ...boardContext(request), boardId: request.params.id, ...request.body, invitesPerDay: config.INVITES_PER_DAY, mailer });
      if (result.kind === 'member') return reply.status(201).send(presentMember(result.member));
      const { invitation } = result;
      return reply.status(202).send({
        invitation: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString(), url: joinUrl(app.server, config, invitation.token), mailed: invitation.mailed },
      });
    },
  );

  app.post(
    '/boards/:id/invitations/:email/link',
    {
      schema: {
        operationId: 'renewInvitationLink',
        tags: ['members'],
        summary: "Resend a pending invitation: a new link, mailed to the address when the server sends mail (board admins); the previous link stops working",
        description:
          'Links are stored as a hash and shown once: a lost link is replaced here. The invitation keeps its role and expiry. ' +
          'No pending invitation for the address (never invited, accepted, expired or revoked): 404.',
        params: s.invitationParams,
        response: { 200: z.object({ invitation: s.invitationWithLink }), ...errors },
      },
    },
    async (request) => {
      const mailer = { mail: app.mail, linkFor: (token: string) => joinUrl(app.server, config, token) };
      const invitation = await renewInvitationLink({ ...boardContext(request), boardId: request.params.id, email: request.params.email, mailer });
      return { invitation: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString(), url: joinUrl(app.server, config, invitation.token), mailed: invitation.mailed } };
    },
  );

  app.get(
    '/boards/:id/invitations',
    {
      schema: {
        operationId: 'listInvitations',
        tags: ['members'],
        summary: "The board's pending invitations, oldest first (board admins)",
        description: 'Invitations not yet accepted and not expired. Accepted ones became members; expired ones are left out.',
        params: s.boardId,
        response: { 200: z.object({ invitations: z.array(s.pendingInvitation) }), 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => ({
      invitations: (await listInvitations({ db: app.db.prisma, actor: request.actor, boardId: request.params.id })).map(presentPendingInvitation),
    }),
  );

  app.delete(
    '/boards/:id/invitations/:email',
    {
      schema: {
        operationId: 'revokeInvitation',
        tags: ['members'],
        summary: 'Revoke a pending invitation, by e-mail address (board admins)',
        description:
          'The address is matched case-insensitively; URL-encode it (`+` as %2B). No pending invitation for it (never invited, ' +
          'accepted, expired or already revoked): 404. Activity: invitation.revoked.',
        params: s.invitationParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await revokeInvitation({ ...boardContext(request), boardId: request.params.id, email: request.params.email });
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/boards/:id/members/:userId',
    {
      schema: {
        operationId: 'updateMember',
        tags: ['members'],
        summary: "Change a member's role (board admins; the last admin cannot be demoted: 409)",
        params: s.memberParams,
        body: z.strictObject({ role: s.role }),
        response: { 200: s.member, ...errors },
      },
    },
    async (request) =>
      presentMember(await updateMember({ ...boardContext(request), boardId: request.params.id, userId: request.params.userId, role: request.body.role })),
  );

  app.delete(
    '/boards/:id/members/:userId',
    {
      schema: {
        operationId: 'removeMember',
        tags: ['members'],
        summary: 'Remove a member (board admins; the last admin cannot go: 409)',
        params: s.memberParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await removeMember({ ...boardContext(request), boardId: request.params.id, userId: request.params.userId });
      return reply.status(204).send(null);
    },
  );
};
