import { hashToken, isWellFormedToken } from '../accounts/credentials/tokens.js';
import type { DbClient } from '../platform/db.js';
import type { CredentialIdentifier } from '../platform/http/rate-limit.js';

/**
 * The workspace whose current token this is, or null. Not cached: generating a new token must
 * stop the old one at once in every process; the lookup is one indexed read.
 */
export async function resolveWorkspaceToken({ db, token }: { db: DbClient; token: string }) {
  if (!isWellFormedToken(token, 'wst_')) return null;
  const workspace = await db.workspace.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true } });
  return workspace ? { workspaceId: workspace.id } : null;
}

/** The rate limiter's view of a workspace token (`Bearer wst_…`): `w:<workspaceId>`, null when it does not work. */
export function workspaceTokenIdentifier(db: DbClient): CredentialIdentifier {
  return async (request) => {
    const token = /^Bearer +(wst_\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return undefined;
    const found = await resolveWorkspaceToken({ db, token });
    return found ? `w:${found.workspaceId}` : null;
  };
}
