import { z } from 'zod';
import { text } from '../platform/schemas.js';
import { eventType, WEBHOOK_EVENT_TYPES } from './event-types.js';

/** Schemas of webhook endpoints and their delivery log (support console, CLI; board webhooks build on them in src/boards/webhooks/schemas.ts). */

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

/** Said where the delivery log is read: how long it goes back (WEBHOOK_RETENTION). */
export const retentionNote =
  'Events are kept for the server\'s WEBHOOK_RETENTION (default 30 days), then deleted with their deliveries once none is pending; older deliveries are no longer listed and cannot be redelivered.';
