import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import type { UserChanged } from './user-changed.js';

export interface UpdateAccountOptions {
  db: PrismaClient;
  userId: number;
  name?: string;
  /** undefined: unchanged; null: the browser's. */
  timeZone?: string | null;
  hour12?: boolean | null;
  /** Told after the change (the boards' cached member lists). */
  /** Required: what other modules drop when a user changes (the board cache); a caller cannot forget it. */
  userChanged: UserChanged;
}

/**
 * A person changes their own name, time zone or clock. (A new e-mail address is confirmed from that address first:
 * requestEmailChange and confirmEmailChange in accounts/email/.)
 */
export async function updateAccount({ db, userId, name, timeZone, hour12, userChanged }: UpdateAccountOptions) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.status !== 'active') throw notFound('user: not found');
  const renamed = name !== undefined && user.name !== name;
  const data = {
    ...(renamed ? { name } : {}),
    ...(timeZone !== undefined && timeZone !== user.timeZone ? { timeZone } : {}),
    ...(hour12 !== undefined && hour12 !== user.hour12 ? { hour12 } : {}),
  };
  if (Object.keys(data).length === 0) return user;
  const updated = await db.user.update({ where: { id: userId }, data });
  // Sessions and keys carry the name and time zone (GET /auth/me): read them again.
  forgetCredentials(db);
  // Only a rename changes what other modules cache (member names).
  if (renamed) await userChanged(userId);
  return updated;
}
