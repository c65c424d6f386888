import type { DeliveryView, EndpointView } from './schemas.js';
import { USER_AGENT } from './send-attempt.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An endpoint row, whoever owns it. */
export interface EndpointRow {
  id: number;
  workspaceId: number | null;
  boardId: number | null;
  userId: number | null;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What every endpoint shows, whoever owns it (never its secrets). */
export function endpointFields(e: EndpointRow, now: Date) {
  return {
    url: e.url,
    description: e.description,
    events: e.events.length ? e.events : null,
    enabled: e.enabled,
    disabledReason: e.enabled ? null : ((e.disabledReason ?? 'manual') as EndpointView['disabledReason']),
    disabledAt: e.enabled ? null : iso(e.disabledAt),
    failingSince: iso(e.failingSince),
    secretRotationEndsAt: e.previousSecretUntil && e.previousSecretUntil > now ? e.previousSecretUntil.toISOString() : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** A workspace's endpoint (console, CLI). */
export function presentEndpoint(e: EndpointRow, now = new Date()): EndpointView {
  if (e.workspaceId === null) throw new Error(`webhook endpoint ${e.id} is a board webhook: presentBoardWebhook`);
  return { id: e.id, workspaceId: e.workspaceId, ...endpointFields(e, now) };
}

export function presentDelivery(d: {
  id: number;
  endpointId: number;
  status: DeliveryView['status'];
  nextAttemptAt: Date;
  createdAt: Date;
  event: { id: string; type: string; body: string };
  attempts: { id: number; startedAt: Date; durationMs: number; statusCode: number | null; error: string | null; responseExcerpt: string | null; succeeded: boolean }[];
}): DeliveryView {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.event.id,
    eventType: d.event.type,
    status: d.status,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    payload: JSON.parse(d.event.body) as unknown,
    attempts: d.attempts.map((a) => ({ ...a, startedAt: a.startedAt.toISOString(), requestHeaders: requestHeaders(d.event, a.startedAt) })),
  };
}

/**
 * The headers an attempt sent, rebuilt from what is kept (the dispatcher stamps webhook-timestamp
 * with the attempt's startedAt). The signature is not kept: it is shown as what it is made of.
 */
function requestHeaders(event: { id: string; body: string }, startedAt: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(event.body)),
    'user-agent': USER_AGENT,
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
    'webhook-signature': 'v1,… (HMAC-SHA256 of id.timestamp.body with the signing secret; not kept)',
  };
}
