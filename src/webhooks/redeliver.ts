import type { Effects } from '../platform/after-commit.js';
import type { DbClient } from '../platform/db.js';
import { AppError } from '../platform/errors.js';
import { type EndpointScope, endpointInScope } from './access.js';

const endpointDisabled = () => new AppError(409, 'endpoint_disabled', 'webhook: the endpoint is disabled; enable it first');

/**
 * Sends one delivery again now, as a new round of the retry schedule with the same webhook-id.
 * A delivery whose attempt is in flight is 409; a pending one waiting for its next attempt is
 * brought forward to now.
 */
export async function redeliverOne({ db, scope, endpointId, deliveryId, effects }: { db: DbClient; scope: EndpointScope; endpointId: number; deliveryId: number; effects: Effects }) {
  const endpoint = await endpointInScope({ db, scope, endpointId });
  if (!endpoint.enabled) throw endpointDisabled();
  const now = new Date();
  const moved = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { status: 'pending', round: 0, nextAttemptAt: now, leaseUntil: null },
  });
  if (moved.count === 0) {
    const exists = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId }, select: { id: true } });
    if (!exists) throw new AppError(404, 'not_found', `delivery: no delivery ${deliveryId} of this endpoint`);
    throw new AppError(409, 'delivery_in_flight', 'delivery: an attempt is in flight right now; try again when it is recorded');
  }
  effects.committed({ kind: 'webhook.queued' });
  return db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { event: true, attempts: { orderBy: { id: 'asc' } } } });
}

/** Sends again every delivery of the endpoint that failed and was created at or after `since`. */
export async function redeliverFailedSince({ db, scope, endpointId, since, effects }: { db: DbClient; scope: EndpointScope; endpointId: number; since: Date; effects: Effects }) {
  const endpoint = await endpointInScope({ db, scope, endpointId });
  if (!endpoint.enabled) throw endpointDisabled();
  const { count } = await db.webhookDelivery.updateMany({
    where: { endpointId, status: 'failed', createdAt: { gte: since } },
    data: { status: 'pending', round: 0, nextAttemptAt: new Date(), leaseUntil: null },
  });
  if (count > 0) effects.committed({ kind: 'webhook.queued' });
  return count;
}
