import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';

/**
 * The webhook endpoint with this id in this workspace, or 404: an endpoint of another workspace
 * is not found. Every endpoint route and command goes through here after the workspace's own
 * check (console membership and role, or the operator's CLI).
 */
export async function endpointOfWorkspace({ db, workspaceId, endpointId }: { db: DbClient; workspaceId: number; endpointId: number }) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId } });
  if (!endpoint) throw notFound(`webhook: no endpoint ${endpointId} in this workspace`);
  return endpoint;
}
