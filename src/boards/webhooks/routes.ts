import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as b from '../schemas.js';
import type { Config } from '../../config.js';
import { errorBody, linkHeader } from '../../platform/openapi.js';
import { linkNext } from '../../platform/http/pagination.js';
import { idParams } from '../../platform/schemas.js';
import { endpointInScope } from '../../webhooks/access.js';
import { boardWebhookScope, newBoardWebhookOwner } from './access.js';
import { createEndpoint } from '../../webhooks/create-endpoint.js';
import { deleteEndpoint } from '../../webhooks/delete-endpoint.js';
import { listBoardWebhooks } from './list-board-webhooks.js';
import { listDeliveries } from '../../webhooks/list-deliveries.js';
import { presentDelivery } from '../../webhooks/presenters.js';
import { redeliverFailedSince, redeliverOne } from '../../webhooks/redeliver.js';
import { rotateSecret } from '../../webhooks/rotate-secret.js';
import * as w from '../../webhooks/schemas.js';
import { updateEndpoint } from '../../webhooks/update-endpoint.js';
import { presentBoardWebhook } from './presenters.js';
import * as s from './schemas.js';

const tags = ['webhooks'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const webhookId = idParams('Webhook');
const deliveryParams = z.strictObject({ id: webhookId.shape.id, deliveryId: idParams('Delivery').shape.id });
const secretNote = 'The secret (whsec_…) is in this response only: the receiver verifies signatures with it.';
const ownerNote = 'Its creator only (a board admin gets 403; other members 404).';

/**
 * Board webhooks: a URL subscribed to a board's events, delivered through the same signed,
 * retried, logged outbox as the workspaces' ticket webhooks (the same endpoint, delivery and
 * attempt shapes as the support console's). Who may do what: src/boards/policy.ts authorizeWebhook.
 */
export const boardWebhookRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const db = app.db.prisma;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE;

  app.post(
    '/boards/:id/webhooks',
    {
      schema: {
        operationId: 'createBoardWebhook',
        tags,
        summary: "Subscribe a URL to the board's events (any member, observers too)",
        description:
          'Every change to the board is POSTed to `url` as `{"type": "<activity type>", "timestamp", "data": <the Activity, as GET /boards/{id}/activity ' +
          'has it>}`, signed per Standard Webhooks (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`), retried on failure. ' +
          '`events` narrows it to some activity types. The webhook is yours: it receives events only while you can read the board ' +
          '(not after you leave it, are removed or blocked). ' +
          `${secretNote} Private and loopback destinations are refused (400) unless the server sets WEBHOOK_ALLOW_PRIVATE. ` +
          'At most 20 webhooks per person and board.',
        params: b.boardId,
        body: s.boardWebhookCreate,
        response: { 201: s.boardWebhookWithSecret, ...errors },
      },
    },
    async (request, reply) => {
      const owner = await newBoardWebhookOwner({ db, actor: request.actor, boardId: request.params.id });
      const { endpoint, secret } = await createEndpoint({ db, owner, input: request.body, allowPrivate });
      return reply.status(201).send({ endpoint: presentBoardWebhook(endpoint), secret });
    },
  );

  app.get(
    '/boards/:id/webhooks',
    {
      schema: {
        operationId: 'listBoardWebhooks',
        tags,
        summary: "The board's webhooks: yours, or every one for a board admin; newest first, paginated with ?before=",
        params: b.boardId,
        querystring: z.object({ limit: b.limitQuery(20, 100), before: b.beforeQuery('a webhook') }),
        response: { 200: s.boardWebhookPage, ...errors },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const page = await listBoardWebhooks({ db, actor: request.actor, boardId: request.params.id, ...request.query });
      linkNext(request, reply, 'before', page.nextBefore);
      return { endpoints: page.endpoints.map((e) => presentBoardWebhook(e)), nextBefore: page.nextBefore };
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getBoardWebhook',
        tags,
        summary: 'A board webhook (its creator, or a board admin)',
        params: webhookId,
        response: { 200: s.boardWebhook, ...errors },
      },
    },
    async (request) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'read' });
      return presentBoardWebhook(await endpointInScope({ db, scope, endpointId: request.params.id }));
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateBoardWebhook',
        tags,
        summary: 'Change, pause or resume a board webhook',
        description: `${ownerNote} \`enabled: true\` also re-enables one disabled for failing or answering 410, and clears its failure record.`,
        params: webhookId,
        body: s.boardWebhookUpdate,
        response: { 200: s.boardWebhook, ...errors },
      },
    },
    async (request) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'manage' });
      return presentBoardWebhook(await updateEndpoint({ db, scope, endpointId: request.params.id, changes: request.body, allowPrivate }));
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteBoardWebhook',
        tags,
        summary: 'Delete a board webhook with its delivery log (its creator, or a board admin)',
        params: webhookId,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'delete' });
      await deleteEndpoint({ db, scope, endpointId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateBoardWebhookSecret',
        tags,
        summary: 'Rotate the signing secret',
        description: `${ownerNote} ${secretNote} For 24 hours deliveries carry a signature with each secret, so the receiver can switch without losing any.`,
        params: webhookId,
        response: { 201: s.boardWebhookWithSecret, ...errors },
      },
    },
    async (request, reply) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'manage' });
      const { endpoint, secret } = await rotateSecret({ db, scope, endpointId: request.params.id });
      return reply.status(201).send({ endpoint: presentBoardWebhook(endpoint), secret });
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listBoardWebhookDeliveries',
        tags,
        summary: 'The delivery log: deliveries newest first, each with its attempts, paginated with ?before=',
        description: `${ownerNote} ${w.retentionNote}`,
        params: webhookId,
        querystring: z.object({
          limit: b.limitQuery(20, 100),
          before: b.beforeQuery('a delivery'),
          status: z.enum(['pending', 'succeeded', 'failed'], { message: 'must be pending, succeeded or failed' }).optional().describe('Only deliveries in this state.'),
        }),
        response: { 200: s.webhookDeliveryPage, ...errors },
        responseHeaders: { 200: { link: linkHeader } },
      },
    },
    async (request, reply) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'manage' });
      const page = await listDeliveries({ db, scope, endpointId: request.params.id, ...request.query });
      linkNext(request, reply, 'before', page.nextBefore);
      return { deliveries: page.deliveries.map(presentDelivery), nextBefore: page.nextBefore };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        operationId: 'redeliverBoardWebhookDelivery',
        tags,
        summary: 'Send one delivery again now (same webhook-id, a fresh round of retries)',
        description: ownerNote,
        params: deliveryParams,
        response: { 202: s.webhookDelivery, ...errors, 409: errorBody.describe('The webhook is disabled, or an attempt is in flight.') },
      },
    },
    async (request, reply) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'manage' });
      const delivery = await redeliverOne({ db, scope, endpointId: request.params.id, deliveryId: request.params.deliveryId, effects: app.effects });
      return reply.status(202).send(presentDelivery(delivery));
    },
  );

  app.post(
    '/webhooks/:id/redeliver',
    {
      schema: {
        operationId: 'redeliverFailedBoardWebhookDeliveries',
        tags,
        summary: 'Send again every delivery that failed since a time',
        description: ownerNote,
        params: webhookId,
        body: z.strictObject({ since: w.since.describe('Deliveries created at or after it (ISO-8601 with an offset).') }),
        response: { 202: z.object({ redelivered: z.number().int().describe('How many deliveries were queued again.') }), ...errors, 409: errorBody.describe('The webhook is disabled.') },
      },
    },
    async (request, reply) => {
      const scope = await boardWebhookScope({ db, actor: request.actor, webhookId: request.params.id, action: 'manage' });
      const redelivered = await redeliverFailedSince({ db, scope, endpointId: request.params.id, since: new Date(request.body.since), effects: app.effects });
      return reply.status(202).send({ redelivered });
    },
  );
};
