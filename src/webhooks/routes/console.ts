import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/openapi.js';
import { id, limitQueryString } from '../../platform/schemas.js';
import { endpointInScope } from '../access.js';
import { createEndpoint } from '../create-endpoint.js';
import { deleteEndpoint } from '../delete-endpoint.js';
import { listDeliveries } from '../list-deliveries.js';
import { listEndpoints } from '../list-endpoints.js';
import { presentDelivery, presentEndpoint } from '../presenters.js';
import { redeliverFailedSince, redeliverOne } from '../redeliver.js';
import { rotateSecret } from '../rotate-secret.js';
import * as s from '../schemas.js';
import { updateEndpoint } from '../update-endpoint.js';

const tags = ['support console: webhooks'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const numericId = (what: string) => z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), id(what));
const endpointParams = z.strictObject({ ...workspaceParam, endpointId: numericId('Endpoint') });
const secretNote = 'The secret (whsec_…) is in this response only: the receiver verifies signatures with it.';

/** A workspace's webhook endpoints and their delivery log (session; owners and admins change them). */
export const webhookConsoleRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const db = app.db.prisma;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE;
  const base = '/agent/workspaces/:workspaceId/webhooks';

  app.get(
    base,
    { schema: { tags, summary: 'List the webhook endpoints', params: z.strictObject(workspaceParam), response: { 200: z.object({ endpoints: z.array(s.endpoint) }), ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { endpoints: (await listEndpoints({ db, workspaceId: workspace.id })).map((e) => presentEndpoint(e)) };
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description: `${secretNote} Private and loopback destinations are refused (400) unless the server sets WEBHOOK_ALLOW_PRIVATE.`,
        params: z.strictObject(workspaceParam),
        body: s.endpointCreate,
        response: { 201: z.object({ endpoint: s.endpoint, secret: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { endpoint, secret } = await createEndpoint({ db, owner: { workspaceId: workspace.id }, input: request.body, allowPrivate });
      return reply.status(201).send({ endpoint: presentEndpoint(endpoint), secret });
    },
  );

  app.get(
    `${base}/:endpointId`,
    { schema: { tags, summary: 'Get a webhook endpoint', params: endpointParams, response: { 200: s.endpoint, ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return presentEndpoint(await endpointInScope({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId }));
    },
  );

  app.patch(
    `${base}/:endpointId`,
    { schema: { tags, summary: 'Change, disable or enable an endpoint', params: endpointParams, body: s.endpointUpdate, response: { 200: s.endpoint, ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const endpoint = await updateEndpoint({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId, changes: request.body, allowPrivate });
      return presentEndpoint(endpoint);
    },
  );

  app.delete(
    `${base}/:endpointId`,
    { schema: { tags, summary: 'Delete an endpoint with its delivery log', params: endpointParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      await deleteEndpoint({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/:endpointId/rotate-secret`,
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description: `${secretNote} For 24 hours deliveries carry a signature with each secret, so the receiver can switch without losing any.`,
        params: endpointParams,
        response: { 201: z.object({ endpoint: s.endpoint, secret: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { endpoint, secret } = await rotateSecret({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId });
      return reply.status(201).send({ endpoint: presentEndpoint(endpoint), secret });
    },
  );

  app.get(
    `${base}/:endpointId/deliveries`,
    {
      schema: {
        tags,
        summary: 'The delivery log: deliveries newest first, each with its attempts',
        description: s.retentionNote,
        params: endpointParams,
        querystring: z.strictObject({
          limit: limitQueryString(100, 20).describe('1-100, default 20.'),
          before: z.string().regex(/^\d{1,10}$/, { message: 'must be a delivery id' }).transform(Number).optional().describe('nextBefore of the previous page.'),
          status: z.enum(['pending', 'succeeded', 'failed']).optional(),
        }),
        response: { 200: z.object({ deliveries: z.array(s.delivery), nextBefore: z.number().int().nullable() }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const page = await listDeliveries({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId, ...request.query });
      return { deliveries: page.deliveries.map(presentDelivery), nextBefore: page.nextBefore };
    },
  );

  app.post(
    `${base}/:endpointId/deliveries/:deliveryId/redeliver`,
    {
      schema: {
        tags,
        summary: 'Send one delivery again now (same webhook-id)',
        params: endpointParams.extend({ deliveryId: numericId('Delivery') }),
        response: { 202: s.delivery, ...errors, 409: errorBody.describe('The endpoint is disabled, or an attempt is in flight.') },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const delivery = await redeliverOne({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId, deliveryId: request.params.deliveryId, effects: app.effects });
      return reply.status(202).send(presentDelivery(delivery));
    },
  );

  app.post(
    `${base}/:endpointId/redeliver`,
    {
      schema: {
        tags,
        summary: 'Send again every delivery that failed since a time',
        params: endpointParams,
        body: z.strictObject({ since: s.since.describe('Deliveries created at or after it.') }),
        response: { 202: z.object({ redelivered: z.number().int() }), ...errors, 409: errorBody.describe('The endpoint is disabled.') },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const since = new Date(request.body.since);
      const redelivered = await redeliverFailedSince({ db, scope: { workspaceId: workspace.id }, endpointId: request.params.endpointId, since, effects: app.effects });
      return reply.status(202).send({ redelivered });
    },
  );
};
