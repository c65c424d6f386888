import type { PrismaClient } from '../../platform/db.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import { verifyPassword } from '../credentials/passwords.js';
import type { UserChanged } from './user-changed.js';

export interface UpdateAccountOptions {
  db: PrismaClient;
  userId: number;
  name?: string | undefined;
  /** Lower-cased by the schema. Changing it needs `currentPassword`: it is what one signs in with. */
  email?: string | undefined;
  currentPassword?: string | undefined;
  /** Told after the change (the boards' cached member lists). */
  userChanged?: UserChanged | undefined;
}

/**
 * A person changes their own name or e-mail address. A new address needs the current password
 * (a session left open must not be enough to take the account's sign-in away from its owner);
 * an address another account has is a 409.
 */
export async function updateAccount({ db, userId, name, email, currentPassword, userChanged }: UpdateAccountOptions) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.status !== 'active') throw notFound('user: not found');
  const newEmail = email !== undefined && email !== user.email ? email : undefined;
  if (newEmail !== undefined) {
    if (currentPassword === undefined) throw badRequest('currentPassword: required to change your e-mail address');
    if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('currentPassword: is not your current password');
    const taken = await db.user.findUnique({ where: { email: newEmail }, select: { id: true } });
    if (taken) throw conflict('email: another account uses this address');
    // Nothing confirms a new address (no mail is sent), so one that someone was invited with is
    // not for the taking: its invitation link would stop working and its boards go to the taker.
    const invited = await db.invitation.findFirst({ where: { email: newEmail, expiresAt: { gt: new Date() } }, select: { id: true } });
    if (invited) throw conflict('email: this address has a pending invitation; accept it from its link instead');
  }
  const updated = await db.user.update({ where: { id: userId }, data: { ...(name !== undefined ? { name } : {}), ...(newEmail !== undefined ? { email: newEmail } : {}) } });
  // Sessions and keys carry the name and address: read them again.
  forgetCredentials(db);
  await userChanged?.(userId);
  return updated;
}
