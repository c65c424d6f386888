import { z } from 'zod';
import { unsafeFindWorkspace } from '../workspaces/access.js';
import { createEndpoint } from '../webhooks/create-endpoint.js';
import { deleteEndpoint } from '../webhooks/delete-endpoint.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types.js';
import { listDeliveries } from '../webhooks/list-deliveries.js';
import { listEndpoints } from '../webhooks/list-endpoints.js';
import { presentDelivery, presentEndpoint } from '../webhooks/presenters.js';
import { redeliverFailedSince, redeliverOne } from '../webhooks/redeliver.js';
import { rotateSecret } from '../webhooks/rotate-secret.js';
import * as s from '../webhooks/schemas.js';
import { updateEndpoint } from '../webhooks/update-endpoint.js';
import { defineCommand } from './command.js';
import { workspaceFlag } from './workspace-commands.js';

const recordId = (what: string) => z.coerce.number({ message: `must be ${what} id` }).int({ message: `must be ${what} id` }).positive({ message: `must be ${what} id` }).max(2_147_483_647, { message: `must be ${what} id` });
/** `--events a,b` → ["a", "b"]; "all" → every type. */
const eventsFlag = z
  .string({ message: `must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}, or "all"` })
  .transform((v) => (v.trim() === 'all' ? null : v.split(',').map((e) => e.trim()).filter(Boolean)))
  .pipe(s.events);
const boolText = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');

export const webhookCreate = defineCommand({
  name: 'webhook create',
  usage: 'webhook create --workspace W --url U [--events a,b] [--description D]',
  summary: `add a webhook endpoint (events: ${WEBHOOK_EVENT_TYPES.join(', ')}; none given = all) and print its secret once`,
  flags: z.strictObject({ workspace: workspaceFlag, url: s.url, events: eventsFlag.optional(), description: s.description.optional() }),
  run: async ({ db, config }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const { endpoint, secret } = await createEndpoint({ db: db.prisma, owner: { workspaceId: f.workspace }, input: f, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
    return { id: endpoint.id, url: endpoint.url, secret };
  },
});

export const webhookList = defineCommand({
  name: 'webhook list',
  usage: 'webhook list --workspace W',
  summary: 'list a workspace\'s webhook endpoints (disabled ones say why)',
  flags: z.strictObject({ workspace: workspaceFlag }),
  run: async ({ db }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    return { endpoints: (await listEndpoints({ db: db.prisma, workspaceId: f.workspace })).map((e) => presentEndpoint(e)) };
  },
});

export const webhookUpdate = defineCommand({
  name: 'webhook update',
  usage: 'webhook update --workspace W --id E [--url U] [--events a,b|all] [--enabled true|false] [--description D]',
  summary: 'change an endpoint; --enabled true re-enables a disabled one',
  flags: z.strictObject({ workspace: workspaceFlag, id: recordId('an endpoint'), url: s.url.optional(), events: eventsFlag.optional(), enabled: boolText.optional(), description: s.description.optional() }),
  run: async ({ db, config }, f) => {
    const endpoint = await updateEndpoint({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id, changes: f, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
    return presentEndpoint(endpoint);
  },
});

export const webhookRotateSecret = defineCommand({
  name: 'webhook rotate-secret',
  usage: 'webhook rotate-secret --workspace W --id E',
  summary: 'give an endpoint a new secret (printed once); the old one still signs for 24 hours',
  flags: z.strictObject({ workspace: workspaceFlag, id: recordId('an endpoint') }),
  run: async ({ db }, f) => {
    const { endpoint, secret } = await rotateSecret({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id });
    return { id: endpoint.id, secret, previousSecretUntil: endpoint.previousSecretUntil!.toISOString() };
  },
});

export const webhookDelete = defineCommand({
  name: 'webhook delete',
  usage: 'webhook delete --workspace W --id E',
  summary: 'delete an endpoint with its delivery log',
  flags: z.strictObject({ workspace: workspaceFlag, id: recordId('an endpoint') }),
  run: async ({ db }, f) => {
    await deleteEndpoint({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id });
    return { id: f.id, deleted: true };
  },
});

export const webhookDeliveries = defineCommand({
  name: 'webhook deliveries',
  usage: 'webhook deliveries --workspace W --id E [--status pending|succeeded|failed] [--limit N]',
  summary: 'an endpoint\'s delivery log, newest first, with every attempt',
  flags: z.strictObject({
    workspace: workspaceFlag,
    id: recordId('an endpoint'),
    status: z.enum(['pending', 'succeeded', 'failed'], { message: 'must be pending, succeeded or failed' }).optional(),
    limit: z.coerce.number({ message: 'must be 1-100' }).int({ message: 'must be 1-100' }).min(1, { message: 'must be 1-100' }).max(100, { message: 'must be 1-100' }).default(20),
  }),
  run: async ({ db }, f) => {
    const page = await listDeliveries({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id, limit: f.limit, status: f.status });
    return { deliveries: page.deliveries.map(presentDelivery), nextBefore: page.nextBefore };
  },
});

export const webhookRedeliver = defineCommand({
  name: 'webhook redeliver',
  usage: 'webhook redeliver --workspace W --id E (--delivery D | --since ISO)',
  summary: 'send one delivery again, or every delivery that failed since a time',
  flags: z
    .strictObject({
      workspace: workspaceFlag,
      id: recordId('an endpoint'),
      delivery: recordId('a delivery').optional(),
      since: s.since.optional(),
    })
    .refine((f) => (f.delivery === undefined) !== (f.since === undefined), { message: 'give --delivery or --since (one of them)' }),
  run: async ({ db, effects }, f) => {
    let redelivered = 1;
    if (f.delivery !== undefined) await redeliverOne({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id, deliveryId: f.delivery, effects });
    else redelivered = await redeliverFailedSince({ db: db.prisma, scope: { workspaceId: f.workspace }, endpointId: f.id, since: new Date(f.since!), effects });
    return { redelivered };
  },
});
