import { z } from 'zod';
import { text } from '../platform/schemas.js';
import { boardEventType, eventType, WEBHOOK_EVENT_TYPES } from './event-types.js';

/** Schemas of webhook endpoints and their delivery log (support console, CLI, and board webhooks under /api). */

export const url = z
  .string({ message: 'must be an http:// or https:// URL' })
  .trim()
  .min(1, { message: 'must be an http:// or https:// URL' })
  .max(2000, { message: 'must be at most 2000 characters' })
  .describe('Where events are POSTed: http(s), a public address unless the server allows private ones.');

export const events = z
  .array(eventType)
  .min(1, { message: 'must name at least one event type (or be null for every type)' })
  .max(WEBHOOK_EVENT_TYPES.length * 2)
  .nullable()
  .describe(`Event types to receive (${WEBHOOK_EVENT_TYPES.join(', ')}); null or absent = every type, including types added later.`);

export const description = text().max(200, { message: 'must be at most 200 characters' }).describe('A note to recognise it by.');

export const endpointCreate = z.strictObject({ url, events: events.optional(), description: description.optional() });

export const endpointUpdate = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z.boolean().optional().describe('false pauses deliveries (they wait); true resumes them and clears the failure record.'),
  })
  .describe('WebhookEndpointUpdate');

export const endpoint = z
  .object({
    id: z.number().int(),
    workspaceId: z.number().int(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()).nullable().describe('null = every type.'),
    enabled: z.boolean(),
    disabledReason: z.enum(['manual', 'gone', 'failing']).nullable()
      .describe('manual: turned off by a person; gone: the endpoint answered 410; failing: every attempt failed for WEBHOOK_DISABLE_AFTER.'),
    disabledAt: z.string().nullable(),
    failingSince: z.string().nullable().describe('The first failed attempt since the last success; null while healthy.'),
    secretRotationEndsAt: z.string().nullable().describe('Until then deliveries carry a signature with the previous secret too.'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('WebhookEndpoint');
export type EndpointView = z.infer<typeof endpoint>;

export const attempt = z
  .object({
    id: z.number().int(),
    startedAt: z.string(),
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable().describe('null when no response came.'),
    error: z.string().nullable().describe('Why no response came: timeout, connection error, private address.'),
    responseExcerpt: z.string().nullable().describe('The first 1 KB of the response body.'),
    succeeded: z.boolean(),
    requestHeaders: z.record(z.string(), z.string())
      .describe('The headers this attempt sent (content-type, content-length, user-agent, webhook-id, webhook-timestamp). The signature is not kept, so webhook-signature names what it was made of; the secret is never shown. The body is the delivery\'s payload, the same on every attempt.'),
  })
  .describe('WebhookAttempt');

export const delivery = z
  .object({
    id: z.number().int(),
    endpointId: z.number().int(),
    eventId: z.string().describe('The webhook-id header of every attempt (msg_…).'),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    nextAttemptAt: z.string().nullable().describe('When pending: the next attempt.'),
    createdAt: z.string(),
    payload: z.unknown().describe('The body sent: {type, timestamp, data}.'),
    attempts: z.array(attempt).describe('Oldest first.'),
  })
  .describe('WebhookDelivery');
export type DeliveryView = z.infer<typeof delivery>;

/** An instant for "redeliver what failed since": ISO-8601 with an offset, years 0001-9999. */
export const since = z.iso
  .datetime({ offset: true, message: 'must be an ISO-8601 date-time' })
  .refine((v) => {
    const year = new Date(v).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, { message: 'must be a date-time in the years 0001-9999' });

// ---------------------------------------------------------------------------------------------
// Board webhooks (/api): the same endpoint, delivery and attempt shapes as the console's, owned
// by a user on a board instead of a workspace.

const nextBefore = z.number().int().nullable().describe('Pass as ?before= for the next (older) page; null on the last page.');

export const boardEvents = z
  .array(boardEventType)
  .max(100, { message: 'must name at most 100 event types' })
  .nullable()
  .describe(
    'Activity types to receive, as GET /boards/{id}/activity names them (card.moved, comment.created, …); ' +
      'null, [] or absent = every type, including types added later.',
  );

export const boardWebhookCreate = z
  .strictObject({
    url,
    description: description.optional(),
    events: boardEvents.optional(),
  })
  .meta({ id: 'BoardWebhookCreate', description: 'A new board webhook: where to POST the board\'s events, and which.' });

export const boardWebhookUpdate = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    events: boardEvents.optional(),
    enabled: z.boolean({ message: 'must be true or false' }).optional().describe('false pauses deliveries (they wait); true resumes them and clears the failure record.'),
  })
  .meta({ id: 'BoardWebhookUpdate', description: 'The fields of a board webhook to change.' });

export const boardWebhook = z
  .object({
    id: z.number().int().describe('Webhook id.'),
    boardId: z.number().int().describe('The board whose events it receives.'),
    userId: z.number().int().describe('Its creator: it is theirs, and receives events only while they can read the board.'),
    url: z.string().describe('Where events are POSTed.'),
    description: z.string().describe('A note to recognise it by.'),
    events: z.array(z.string()).nullable().describe('The activity types it receives; null = every type.'),
    enabled: z.boolean().describe('false: no deliveries are sent (see disabledReason).'),
    disabledReason: z
      .enum(['manual', 'gone', 'failing'])
      .nullable()
      .describe('manual: paused by its creator (events still wait for it); gone: the receiver answered 410; failing: every attempt failed for WEBHOOK_DISABLE_AFTER.'),
    disabledAt: z.string().nullable().describe('When it was disabled (ISO-8601 UTC); null while enabled.'),
    failingSince: z.string().nullable().describe('The first failed attempt since the last success; null while healthy.'),
    secretRotationEndsAt: z.string().nullable().describe('Until then deliveries carry a signature with the previous secret too.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'BoardWebhook', description: "A URL subscribed to a board's events; the secret is never shown after creation or rotation." });
export type BoardWebhookView = z.infer<typeof boardWebhook>;

export const boardWebhookWithSecret = z
  .object({
    endpoint: boardWebhook,
    secret: z.string().describe('whsec_…: the receiver verifies signatures with it. Shown in this response only.'),
  })
  .meta({ id: 'BoardWebhookWithSecret', description: 'A board webhook and its signing secret, shown once.' });

export const boardWebhookPage = z
  .object({ endpoints: z.array(boardWebhook).describe('Newest first.'), nextBefore })
  .meta({ id: 'BoardWebhookPage', description: "A page of a board's webhooks, newest first." });

export const webhookDelivery = delivery.meta({ id: 'WebhookDelivery', description: 'One event to one webhook, with every attempt to deliver it.' });

export const webhookDeliveryPage = z
  .object({ deliveries: z.array(webhookDelivery).describe('Newest first.'), nextBefore })
  .meta({ id: 'WebhookDeliveryPage', description: "A page of a webhook's delivery log, newest first." });

/** Said where the delivery log is read: how long it goes back (WEBHOOK_RETENTION). */
export const retentionNote =
  'Events are kept for the server\'s WEBHOOK_RETENTION (default 30 days), then deleted with their deliveries once none is pending; older deliveries are no longer listed and cannot be redelivered.';
