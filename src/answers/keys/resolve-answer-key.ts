import { lookupCredential } from '../../accounts/credentials/credential-cache.js';
import { hashToken, isWellFormedToken } from '../../accounts/credentials/tokens.js';
import { touchLastUsed } from '../../accounts/keys/touch-last-used.js';
import type { PrismaClient } from '../../platform/db.js';
import type { CredentialIdentifier } from '../../platform/http/rate-limit.js';

export interface AnswerKeyCredential {
  keyId: number;
  workspaceId: number;
}

interface Cached {
  credential: AnswerKeyCredential;
  usable: boolean;
  lastUsedAt: number | null;
  notBefore: number;
}

/**
 * The live answer key behind an ans_ token, or null (malformed, unknown, revoked). Cached like
 * personal keys: a revocation through this process applies at once, through another within 1 s.
 */
export async function resolveAnswerKey({ db, token, now = Date.now() }: { db: PrismaClient; token: string; now?: number }) {
  if (!isWellFormedToken(token, 'ans_')) return null;
  const hash = hashToken(token);
  const entry = await lookupCredential(db, `answer-key:${hash}`, async (): Promise<Cached | null> => {
    const key = await db.answerKey.findFirst({ where: { tokenHash: hash } });
    return key && {
      credential: { keyId: key.id, workspaceId: key.workspaceId },
      usable: key.revokedAt === null,
      lastUsedAt: key.lastUsedAt?.getTime() ?? null,
      notBefore: key.createdAt.getTime(),
    };
  });
  if (!entry?.usable) return null;
  const keyId = entry.credential.keyId;
  touchLastUsed(entry, now, (at) =>
    db.answerKey.updateMany({ where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } }),
  );
  return entry.credential;
}

/** The rate limiter's view of an answer key (`X-API-Key: ans_…`): `a:<keyId>`, null when it does not work. */
export function answerKeyIdentifier(db: PrismaClient): CredentialIdentifier {
  return async (request) => {
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string') return undefined;
    const key = await resolveAnswerKey({ db, token: header });
    return key ? `a:${key.keyId}` : null;
  };
}
