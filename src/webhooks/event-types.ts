import { z } from 'zod';

/** Every event type a workspace's webhook endpoint can receive. */
export const WEBHOOK_EVENT_TYPES = ['ticket.created', 'ticket.updated', 'ticket.comment_created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const eventType = z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });
