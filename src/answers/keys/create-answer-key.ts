import { displayPrefix, generateToken, hashToken } from '../../accounts/credentials/tokens.js';
import type { DbClient } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';

/** A new answer-API key of the workspace and its token (shown once; only its hash is kept). */
export async function createAnswerKey({ db, workspaceId, name }: { db: DbClient; workspaceId: number; name: string }) {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 60) throw badRequest('name: must be 1-60 characters');
  const token = generateToken('ans_');
  const key = await db.answerKey.create({
    data: { workspaceId, name: trimmed, tokenHash: hashToken(token), prefix: displayPrefix(token) },
  });
  return { key, token };
}
