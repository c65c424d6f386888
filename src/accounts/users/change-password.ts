import type { PrismaClient } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import { hashPassword, verifyPassword } from '../credentials/passwords.js';

export interface ChangePasswordOptions {
  db: PrismaClient;
  userId: number;
  currentPassword: string;
  newPassword: string;
  /** The session making the change: kept; every other session of the user ends. */
  keepSessionId: string;
}

/** Sets a new password after checking the current one (400 naming currentPassword); ends the user's other sessions. */
export async function changePassword({ db, userId, currentPassword, newPassword, keepSessionId }: ChangePasswordOptions) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.status !== 'active') throw notFound('user: not found');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('currentPassword: that is not your current password');
  const passwordHash = await hashPassword(newPassword);
  const ended = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    return (await tx.session.deleteMany({ where: { userId, id: { not: keepSessionId } } })).count;
  });
  forgetCredentials(db);
  return { endedSessions: ended };
}
