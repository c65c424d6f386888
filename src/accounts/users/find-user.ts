import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/** The (not deleted) user with this address, else 404. */
export async function findUserByEmail({ db, email }: { db: DbClient; email: string }) {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user || user.status === 'deleted') throw notFound(`user: no user with e-mail ${email}`);
  return user;
}
