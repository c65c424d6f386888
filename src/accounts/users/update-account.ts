import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import type { UserChanged } from './user-changed.js';

export interface UpdateAccountOptions {
  db: PrismaClient;
  userId: number;
  name: string;
  /** Told after the change (the boards' cached member lists). */
  /** Required: what other modules drop when a user changes (the board cache); a caller cannot forget it. */
  userChanged: UserChanged;
}

/**
 * A person changes their own name. (A new e-mail address is confirmed from that address first:
 * requestEmailChange and confirmEmailChange in accounts/email/.)
 */
export async function updateAccount({ db, userId, name, userChanged }: UpdateAccountOptions) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.status !== 'active') throw notFound('user: not found');
  if (user.name === name) return user;
  const updated = await db.user.update({ where: { id: userId }, data: { name } });
  // Sessions and keys carry the name: read them again.
  forgetCredentials(db);
  await userChanged(userId);
  return updated;
}
