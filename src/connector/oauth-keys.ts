import { generateKeyPair, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { JWK } from 'oidc-provider';
import type { PrismaClient } from '../platform/db.js';

export interface OAuthKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/**
 * The authorisation server's keys: one signing key (ID tokens, when a client asks for `openid`)
 * and the keys that sign its cookies. Made by the first process that needs them and shared
 * through the database, so every process signs and verifies alike across restarts.
 */
export async function loadOAuthKeys({ db }: { db: PrismaClient }): Promise<OAuthKeys> {
  const existing = await db.oAuthKeys.findUnique({ where: { id: 1 } });
  if (existing) return { jwks: existing.jwks as unknown as OAuthKeys['jwks'], cookieKeys: existing.cookieKeys as string[] };
  // Off the event loop: an RSA key takes tens to hundreds of milliseconds to make.
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' } as JWK;
  const fresh = { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  // Two processes starting at once: the first insert wins and both use its keys.
  await db.oAuthKeys.createMany({ data: [{ id: 1, jwks: fresh.jwks as never, cookieKeys: fresh.cookieKeys }], skipDuplicates: true });
  return loadOAuthKeys({ db });
}
