import type { DbClient } from '../platform/db.js';
import { type EndpointScope, endpointInScope } from './access.js';

/** Deletes an endpoint with its deliveries and their log. */
export async function deleteEndpoint({ db, scope, endpointId }: { db: DbClient; scope: EndpointScope; endpointId: number }) {
  const endpoint = await endpointInScope({ db, scope, endpointId });
  await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
}
