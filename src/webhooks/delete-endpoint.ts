import type { DbClient } from '../platform/db.js';
import { endpointOfWorkspace } from './access.js';

/** Deletes an endpoint with its deliveries and their log. */
export async function deleteEndpoint({ db, workspaceId, endpointId }: { db: DbClient; workspaceId: number; endpointId: number }) {
  const endpoint = await endpointOfWorkspace({ db, workspaceId, endpointId });
  await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
}
