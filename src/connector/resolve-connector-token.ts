import { lookupCredential } from '../accounts/credentials/credential-cache.js';
import type { Principal } from '../accounts/credentials/resolve-credential.js';
import { hashToken } from '../accounts/credentials/tokens.js';
import { touchLastUsed } from '../accounts/keys/touch-last-used.js';
import type { PrismaClient } from '../platform/db.js';
import type { AuthorizationServer } from './authorization-server.js';

/** Who a connector access token speaks for, and through which connection. */
export interface ConnectorCredential extends Principal {
  connectionId: number;
  clientId: string;
  /** The name the assistant registered with ("Claude"): activity made through it says so. */
  clientName: string;
  /** "read" or "read write". */
  scope: string;
}

interface CachedToken {
  credential: ConnectorCredential;
  expiresAt: number;
  usable: boolean;
  lastUsedAt: number | null;
  notBefore: number;
}

/** The library's opaque tokens are base64url; anything else is refused before any lookup. */
const WELL_FORMED = /^[A-Za-z0-9_-]{32,128}$/;

const audienceIncludes = (aud: string | string[] | undefined, resource: string) =>
  Array.isArray(aud) ? aud.includes(resource) : aud === resource;

/**
 * The live connection behind a connector access token, or null: unknown, expired or revoked
 * token, a token for another resource (RFC 8707), a connection that was disconnected (its grant
 * is gone), or a user who is no longer active. Cached for a second like every credential, and
 * forgotten at once when this server disconnects a connection or blocks a user.
 */
export async function resolveConnectorToken({
  db,
  server,
  token,
  resource,
  now = Date.now(),
}: {
  db: PrismaClient;
  server: AuthorizationServer;
  token: string;
  resource: string;
  now?: number;
}): Promise<ConnectorCredential | null> {
  if (!WELL_FORMED.test(token)) return null;
  const cacheKey = `connector:${hashToken(token)}`;
  const entry = await lookupCredential(db, cacheKey, async (): Promise<CachedToken | null> => {
    const accessToken = await server.AccessToken.find(token);
    const bound = accessToken && !accessToken.isExpired && accessToken.grantId && audienceIncludes(accessToken.aud, resource);
    const connection = bound
      ? await db.connectorConnection.findFirst({
          where: { grantId: accessToken.grantId! },
          include: { user: { select: { name: true, email: true, siteAdmin: true, status: true } } },
        })
      : null;
    return connection && accessToken && String(connection.userId) === accessToken.accountId
        ? {
            credential: {
              connectionId: connection.id,
              clientId: connection.clientId,
              clientName: connection.clientName,
              // What this token carries (never more than the connection was approved for).
              scope: accessToken.scope ?? '',
              userId: connection.userId,
              name: connection.user.name,
              email: connection.user.email,
              siteAdmin: connection.user.siteAdmin,
            },
            expiresAt: (accessToken.exp ?? 0) * 1000,
            usable: connection.user.status === 'active',
            lastUsedAt: connection.lastUsedAt?.getTime() ?? null,
            notBefore: connection.createdAt.getTime(),
          }
        : null;
  });
  if (!entry || !entry.usable || entry.expiresAt <= now) return null;
  const connectionId = entry.credential.connectionId;
  touchLastUsed(entry, now, (at) =>
    db.connectorConnection.updateMany({ where: { id: connectionId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } }),
  );
  return entry.credential;
}
