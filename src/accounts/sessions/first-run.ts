import type { PrismaClient } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';
import { hashPassword } from '../credentials/passwords.js';

/** Any key: it serialises first-run set-ups across processes sharing the database. */
const FIRST_RUN_LOCK = 7_311_001;

/** True while the site has no user at all: the web app then offers its first-run page. */
export async function setupNeeded(db: PrismaClient): Promise<boolean> {
  return (await db.user.count()) === 0;
}

const alreadySetUp = () => conflict('setup: the site already has users; sign in instead');

/**
 * The site's first user, a site administrator. Refused (409) as soon as any user exists, also
 * when two first-run requests race: the check and the insert hold one advisory lock.
 */
export async function createFirstAdmin({ db, email, password, name }: { db: PrismaClient; email: string; password: string; name?: string | undefined }) {
  // Checked before hashing: a hash costs ~0.2 s of CPU and 64 MiB, and a set-up site must not
  // pay that for every request anyone sends here. Checked again under the lock below.
  if (!(await setupNeeded(db))) throw alreadySetUp();
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1)', FIRST_RUN_LOCK);
    if ((await tx.user.count()) > 0) throw alreadySetUp();
    return tx.user.create({ data: { email, name: name ?? email.split('@')[0]!, passwordHash, siteAdmin: true } });
  });
}
