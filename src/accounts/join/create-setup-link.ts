import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { generateToken, hashToken } from '../credentials/tokens.js';

/** How long a set-up link works. */
export const SETUP_LINK_DAYS = 7;

/**
 * A link (set_…) with which an active user chooses their name and password: made by a site admin
 * for a user created without a password, or for one who lost theirs (`purpose` setup), or mailed
 * by "Forgot password" (`reset`). One per user and purpose: a new link replaces the previous one
 * of its purpose only, so an anonymous reset request never voids the link an admin handed over.
 * Stored as a hash; the token is returned once. Not an active user: 404.
 * `validForMs`: shorter than SETUP_LINK_DAYS for a password reset by mail (a mailbox is read later
 * and by more eyes than a link handed over in person).
 */
export async function createSetupLink({
  db,
  userId,
  purpose = 'setup',
  validForMs = SETUP_LINK_DAYS * 86_400_000,
}: {
  db: DbClient;
  userId: number;
  purpose?: 'setup' | 'reset';
  validForMs?: number;
}) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { status: true } });
  if (!user || user.status !== 'active') throw notFound('user: not found (or not active)');
  const token = generateToken('set_');
  const expiresAt = new Date(Date.now() + validForMs);
  await db.accountSetupLink.upsert({
    where: { userId_purpose: { userId, purpose } },
    create: { userId, purpose, tokenHash: hashToken(token), expiresAt },
    update: { tokenHash: hashToken(token), expiresAt, createdAt: new Date() },
  });
  return { token, expiresAt };
}
