import type { PrismaClient } from '../platform/db.js';
import type { AuthorizationServer } from './authorization-server.js';
import { keepClient } from './oauth-store.js';
import { scopeFor } from './policy.js';

/**
 * What a person's "Approve" makes: an OAuth grant for the client, bound to the MCP resource with
 * the approved scopes, and the connection row that lists it under Connected apps.
 */
export async function createConnection({
  db,
  server,
  userId,
  clientId,
  clientName,
  resource,
  requested,
  write,
}: {
  db: PrismaClient;
  server: AuthorizationServer;
  userId: number;
  clientId: string;
  clientName: string;
  resource: string;
  /** The scopes the client asked for (`scope` of the authorisation request). */
  requested: string;
  write: boolean;
}) {
  const scope = scopeFor(write);
  const grant = new server.Grant({ accountId: String(userId), clientId });
  // Every requested scope is answered, granted or refused, or the library would ask again.
  grant.addResourceScope(resource, scope);
  if (!write) grant.rejectResourceScope(resource, 'write');
  const oidc = requested.split(/\s+/).filter(Boolean);
  grant.addOIDCScope(oidc.filter((s) => s !== 'write' || write).join(' '));
  if (!write && oidc.includes('write')) grant.rejectOIDCScope('write');
  const grantId = await grant.save();
  await keepClient({ db, clientId });
  return db.connectorConnection.create({ data: { userId, grantId, clientId, clientName: clientName.slice(0, 200), scope } });
}
