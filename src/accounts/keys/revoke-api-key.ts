import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';

/** Revokes one of the user's keys (idempotent); 404 for a key that is not theirs. */
export async function revokeApiKey({ db, userId, keyId }: { db: PrismaClient; userId: number; keyId: number }) {
  const key = await db.apiKey.findFirst({ where: { id: keyId, userId } });
  if (!key) throw notFound('key: not found');
  const revoked = key.revokedAt
    ? key
    : await db.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
  forgetCredentials(db);
  return revoked;
}
