import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import type { UserChanged } from './user-changed.js';

export interface SetUserStatusOptions {
  db: PrismaClient;
  userId: number;
  status: 'active' | 'blocked' | 'deleted';
  /** Told after the change (a deleted user's address changes on every board they belong to). */
  /** Required: what other modules drop when a user changes (the board cache); a caller cannot forget it. */
  userChanged: UserChanged;
}

/**
 * Blocks, unblocks or deletes a user. Blocking and deleting end every session at once and stop
 * every key (the key check reads the owner's status). Deleting keeps the row so history keeps the
 * name, but frees the address, drops the password and revokes the keys: it cannot be undone.
 */
export async function setUserStatus({ db, userId, status, userChanged }: SetUserStatusOptions) {
  const updated = await db.$transaction(async (tx) => {
    // Locked and re-read inside the transaction: an unblock racing a delete must not undo it.
    const [user] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (!user || user.status === 'deleted') throw notFound('user: not found');
    if (status !== 'active') await tx.session.deleteMany({ where: { userId } });
    if (status === 'deleted') {
      await tx.apiKey.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
      return tx.user.update({
        where: { id: userId },
        data: { status, passwordHash: null, siteAdmin: false, email: `deleted-${userId}@deleted.invalid` },
      });
    }
    return tx.user.update({ where: { id: userId }, data: { status } });
  });
  forgetCredentials(db);
  await userChanged(userId);
  return updated;
}
