import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';

/**
 * Which endpoints a caller may act on, as a query condition: a workspace's (the console, after
 * its membership and role check, or the operator's CLI), or a board's (src/boards/webhooks/access.ts
 * decides: the creator's own, or every webhook of the board for a board admin).
 */
export type EndpointScope = { workspaceId: number } | { boardId: number; userId?: number };

/** The scope as a `where` condition: an endpoint of another owner is simply not found. */
export function endpointWhere(scope: EndpointScope) {
  return 'workspaceId' in scope ? { workspaceId: scope.workspaceId } : { boardId: scope.boardId, ...(scope.userId === undefined ? {} : { userId: scope.userId }) };
}

/**
 * The webhook endpoint with this id in this scope, or 404: an endpoint of another workspace or
 * board is not found. Every endpoint route and command goes through here after its owner's check.
 */
export async function endpointInScope({ db, scope, endpointId }: { db: DbClient; scope: EndpointScope; endpointId: number }) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, ...endpointWhere(scope) } });
  if (!endpoint) throw notFound('workspaceId' in scope ? `webhook: no endpoint ${endpointId} in this workspace` : `webhook: not found`);
  return endpoint;
}
