import { hashToken, isWellFormedToken } from '../accounts/tokens.js';
import type { DbClient } from '../platform/db.js';

/**
 * The workspace whose current token this is, or null. Not cached: generating a new token must
 * stop the old one at once in every process; the lookup is one indexed read.
 */
export async function resolveWorkspaceToken({ db, token }: { db: DbClient; token: string }) {
  if (!isWellFormedToken(token, 'wst_')) return null;
  const workspace = await db.workspace.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true } });
  return workspace ? { workspaceId: workspace.id } : null;
}
