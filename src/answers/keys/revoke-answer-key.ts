import { forgetCredentials } from '../../accounts/credentials/credential-cache.js';
import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/** Revokes a key of the workspace (idempotent); 404 for a key of another workspace. */
export async function revokeAnswerKey({ db, workspaceId, keyId }: { db: PrismaClient; workspaceId: number; keyId: number }) {
  const key = await db.answerKey.findFirst({ where: { id: keyId, workspaceId } });
  if (!key) throw notFound('key: not found');
  const revoked = key.revokedAt ? key : await db.answerKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
  forgetCredentials(db);
  return revoked;
}
