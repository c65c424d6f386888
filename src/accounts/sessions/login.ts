import type { PrismaClient } from '../../platform/db.js';
import { AppError, unauthorized } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import { openSession } from './open-session.js';
import { verifyPassword } from '../credentials/passwords.js';

export interface LoginOptions {
  db: PrismaClient;
  email: string;
  password: string;
  ip: string | null;
  userAgent?: string | undefined;
  ttlHours: number;
}

/** Checks the password and opens a session: 401 for wrong credentials, 403 for a blocked user. */
export async function login({ db, email, password, ip, userAgent, ttlHours }: LoginOptions) {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok || user.status === 'deleted') throw unauthorized('wrong e-mail or password');
  if (user.status === 'blocked') throw new AppError(403, 'forbidden', 'this account is blocked');
  const { token, expiresAt } = await openSession({ db, userId: user.id, ip, userAgent, ttlHours });
  return { user, token, expiresAt };
}

/** Ends one session (logout); unknown sessions are fine. */
export async function logout({ db, sessionId }: { db: PrismaClient; sessionId: string }) {
  await db.session.deleteMany({ where: { id: sessionId } });
  forgetCredentials(db);
}
