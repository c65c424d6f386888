import { displayPrefix, generateToken, hashToken } from '../accounts/credentials/tokens.js';
import type { DbClient } from '../platform/db.js';

/**
 * A new workspace token (wst_…), shown once. It replaces the previous one in the same row, so the
 * old token stops working at once, in every process (tokens are looked up, never cached).
 */
export async function regenerateWorkspaceToken({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  const token = generateToken('wst_');
  const workspace = await db.workspace.update({
    where: { id: workspaceId },
    data: { tokenHash: hashToken(token), tokenPrefix: displayPrefix(token), tokenCreatedAt: new Date() },
  });
  return { token, prefix: workspace.tokenPrefix!, createdAt: workspace.tokenCreatedAt! };
}
