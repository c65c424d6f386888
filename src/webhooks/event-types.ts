import { z } from 'zod';
import { ACTIVITY_TYPES } from '../boards/activity/activity-types.js';

/** Every event type a workspace's webhook endpoint can receive. */
export const WEBHOOK_EVENT_TYPES = ['ticket.created', 'ticket.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const eventType = z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });

/** A board webhook's event type: an activity type (card.moved, comment.created …), so that a misspelt one is refused rather than never matching. */
export const boardEventType = z.enum(ACTIVITY_TYPES, { message: 'must be an activity type (card.moved, comment.created, …: the types of GET /boards/{id}/activity)' });
