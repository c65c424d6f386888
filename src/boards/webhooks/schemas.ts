import { z } from 'zod';
import { delivery, description, url } from '../../webhooks/schemas.js';
import { ACTIVITY_TYPES } from '../activity/activity-types.js';

// Board webhooks (/api): the same endpoint, delivery and attempt shapes as the console's, owned
// by a user on a board instead of a workspace.

/** A board webhook's event type: an activity type (card.moved, comment.created …), so that a misspelt one is refused rather than never matching. */
export const boardEventType = z.enum(ACTIVITY_TYPES, { message: 'must be an activity type (card.moved, comment.created, …: the types of GET /boards/{id}/activity)' });

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
