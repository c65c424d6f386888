import type { DbClient } from '../platform/db.js';
import { type EndpointScope, endpointInScope } from './access.js';
import { generateSecret } from './signing.js';

/** How long deliveries are signed with the previous secret too, after a rotation. */
export const ROTATION_WINDOW_MS = 24 * 3_600_000;

/**
 * A new secret (shown once). For the next 24 hours every delivery carries two signatures, one
 * per secret (Standard Webhooks allows several), so the receiver can switch without losing any.
 */
export async function rotateSecret({ db, scope, endpointId, now = new Date() }: { db: DbClient; scope: EndpointScope; endpointId: number; now?: Date }) {
  const endpoint = await endpointInScope({ db, scope, endpointId });
  const secret = generateSecret();
  const updated = await db.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { secret, previousSecret: endpoint.secret, previousSecretUntil: new Date(now.getTime() + ROTATION_WINDOW_MS) },
  });
  return { endpoint: updated, secret };
}
