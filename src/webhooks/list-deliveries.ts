import type { DbClient } from '../platform/db.js';
import { type EndpointScope, endpointInScope } from './access.js';

/** An endpoint's deliveries, newest first, each with its attempts; `before` pages by id. */
export async function listDeliveries({
  db,
  scope,
  endpointId,
  limit,
  before,
  status,
}: {
  db: DbClient;
  scope: EndpointScope;
  endpointId: number;
  limit: number;
  before?: number | undefined;
  status?: 'pending' | 'succeeded' | 'failed' | undefined;
}) {
  await endpointInScope({ db, scope, endpointId });
  const read = (tx: DbClient) =>
    tx.webhookDelivery.findMany({
      where: { endpointId, ...(before ? { id: { lt: before } } : {}), ...(status ? { status } : {}) },
      orderBy: { id: 'desc' },
      take: limit + 1,
      include: { event: true, attempts: { orderBy: { id: 'asc' } } },
    });
  // Prisma reads deliveries and their attempts in separate statements: one snapshot for all of
  // them, or a result written in between shows an attempt beside the delivery's older state.
  const rows = '$transaction' in db ? await db.$transaction((tx) => read(tx), { isolationLevel: 'RepeatableRead' }) : await read(db);
  const page = rows.slice(0, limit);
  return { deliveries: page, nextBefore: rows.length > limit ? page.at(-1)!.id : null };
}
