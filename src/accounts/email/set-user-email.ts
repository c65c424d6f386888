import type { PrismaClient } from '../../platform/db.js';
import { conflict, notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import type { UserChanged } from '../users/user-changed.js';

/**
 * A site administrator sets a user's e-mail address at once (the admin API and CLI): the way
 * addresses change on a server without SMTP, where nothing could confirm one. 409 when another
 * account uses it; a pending confirmation of the user's own is dropped.
 */
export async function setUserEmail({ db, userId, email, userChanged }: { db: PrismaClient; userId: number; email: string; userChanged: UserChanged }) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { status: true, email: true } });
  if (!user || user.status === 'deleted') throw notFound('user: not found');
  if (user.email === email) return db.user.findUniqueOrThrow({ where: { id: userId } });
  const taken = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (taken) throw conflict('email: another account uses this address');
  const updated = await db.$transaction(async (tx) => {
    await tx.emailChange.deleteMany({ where: { userId } });
    return tx.user.update({ where: { id: userId }, data: { email } });
  });
  forgetCredentials(db);
  await userChanged(userId);
  return updated;
}
