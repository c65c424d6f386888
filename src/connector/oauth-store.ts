import { createHash } from 'node:crypto';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { forgetCredentials } from '../accounts/credentials/credential-cache.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClient } from '../platform/db.js';

/**
 * Every record is keyed by the SHA-256 of the library's id: for tokens, codes and sessions the id
 * *is* the secret (the bearer value, the cookie), so the database never holds one that works.
 */
const keyOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** The record as the library handed it, minus a token's own value (its `jti`). */
function storable(kind: string, id: string, payload: AdapterPayload): Prisma.InputJsonObject {
  const { jti, ...rest } = payload;
  return (TOKEN_KINDS.has(kind) && jti === id ? rest : payload) as Prisma.InputJsonObject;
}

function restored(id: string, row: { kind: string; payload: unknown; consumedAt: Date | null }): AdapterPayload {
  const payload = { ...(row.payload as AdapterPayload) };
  if (TOKEN_KINDS.has(row.kind)) payload.jti = id;
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

/** Kinds whose payload repeats the id as `jti`. */
const TOKEN_KINDS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'RegistrationAccessToken',
  'ReplayDetection',
  'PreAuthorizedCode',
]);

const live = (now = new Date()) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * A dynamically registered client that no person approves within a day is forgotten:
 * registration is open to anyone, so unused registrations must not pile up. Approving one
 * keeps it (keepClient).
 */
export const UNAPPROVED_CLIENT_TTL_S = 24 * 60 * 60;

/**
 * oidc-provider's storage on our database (table OAuthRecord), so every process shares clients,
 * grants and tokens and a restart loses none. Revoking a grant also ends its connection.
 */
export function oauthStore(db: PrismaClient): AdapterFactory {
  return (kind: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const key = keyOf(id);
      const data = {
        payload: storable(kind, id, payload),
        grantId: payload.grantId ?? (kind === 'Grant' ? id : null),
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : kind === 'Client' ? new Date(Date.now() + UNAPPROVED_CLIENT_TTL_S * 1000) : null,
      };
      await db.oAuthRecord.upsert({ where: { kind_id: { kind, id: key } }, create: { kind, id: key, ...data }, update: data });
    },

    async find(id) {
      const row = await db.oAuthRecord.findFirst({ where: { kind, id: keyOf(id), ...live() } });
      return row ? restored(id, row) : undefined;
    },

    async findByUid(uid) {
      const row = await db.oAuthRecord.findFirst({ where: { kind, uid, ...live() } });
      // Only sessions are looked up by uid; their id is not stored, and the library does not need it back.
      return row ? (row.payload as AdapterPayload) : undefined;
    },

    async findByUserCode() {
      return undefined; // the device flow is off
    },

    async consume(id) {
      await db.oAuthRecord.updateMany({ where: { kind, id: keyOf(id) }, data: { consumedAt: new Date() } });
    },

    async destroy(id) {
      await db.oAuthRecord.deleteMany({ where: { kind, id: keyOf(id) } });
      if (kind === 'Grant') {
        // The library revoked the grant (a refresh token replayed or revoked): the connection
        // ends with it, and tokens this process has cached stop now.
        await db.connectorConnection.deleteMany({ where: { grantId: id } });
        forgetCredentials(db);
      }
    },

    async revokeByGrantId(grantId) {
      // This kind's records of the grant; the grant itself (and with it the connection) goes
      // through destroy when the library revokes the whole grant (a refresh token replayed).
      await db.oAuthRecord.deleteMany({ where: { kind, grantId } });
      if (kind === 'AccessToken') forgetCredentials(db);
    },
  });
}

/** Removes records that have expired (the library ignores them already); returns how many. */
export async function sweepExpiredOAuthRecords({ db, now = new Date() }: { db: PrismaClient; now?: Date }) {
  const { count } = await db.oAuthRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

/** A person approved this client: its registration no longer expires. */
export async function keepClient({ db, clientId }: { db: PrismaClient; clientId: string }) {
  await db.oAuthRecord.updateMany({ where: { kind: 'Client', id: keyOf(clientId) }, data: { expiresAt: null } });
}
