import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { createUserWithInvitations as createUser } from '../src/boards/members/sign-up.js';
import { hashPassword } from '../src/accounts/credentials/passwords.js';
import { generateSessionToken, hashToken } from '../src/accounts/credentials/tokens.js';
import { SESSION_COOKIE } from '../src/accounts/credentials/auth.js';
import type { Database } from '../src/platform/db.js';
import { cliEffects } from '../src/cli/effects.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const unique = () => randomBytes(4).toString('hex');

/** A new active user with a known password. */
/**
 * One argon2 hash per password per test process: a hash costs about half a second on the CI
 * machine (64 MiB, t=3, on purpose), and most tests make several users with the same password.
 */
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

export async function makeUser(db: Database, overrides: { email?: string; name?: string; siteAdmin?: boolean; password?: string } = {}) {
  const password = overrides.password ?? 'correct horse battery';
  const email = overrides.email ?? `user-${unique()}@example.com`;
  // Outside any server, as a script or the admin CLI of its own makes a user: a bus and effects of its own.
  const events = new EventBus();
  const user = await createUser({ db: db.prisma, email, passwordHash: await hashOnce(password), name: overrides.name ?? `User ${unique()}`, siteAdmin: overrides.siteAdmin, events, effects: cliEffects(events) });
  return { ...user, password };
}

/** A key for the user; write permission and all boards unless told otherwise. */
export async function makeKey(
  db: Database,
  userId: number,
  options: { permission?: 'read' | 'write'; boardIds?: number[] | null; expiresAt?: Date | null; name?: string } = {},
) {
  const { key, token } = await createApiKey({
    db: db.prisma,
    userId,
    name: options.name ?? `key ${unique()}`,
    permission: options.permission ?? 'write',
    boardIds: options.boardIds ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  return { key, token, auth: { authorization: `Bearer ${token}` } };
}

/** A board with the user as admin, and others with the given roles. */
export async function makeBoard(
  db: Database,
  adminId: number,
  others: { userId: number; role: 'admin' | 'member' | 'observer' }[] = [],
  name = `Board ${unique()}`,
) {
  return db.prisma.board.create({
    data: { name, members: { create: [{ userId: adminId, role: 'admin' }, ...others] } },
  });
}

/** Logs in through the API; returns the cookie header to send. */
export async function loginCookie(app: FastifyInstance, email: string, password: string): Promise<{ cookie: string }> {
  // A user made by makeUser with this password has exactly the hash made once for it: that proves
  // the password, so the session is opened as login() opens it, without another half-second verify.
  const user = await app.db.prisma.user.findUnique({ where: { email: email.toLowerCase() } });
  const known = hashes.get(password);
  if (user && user.status === 'active' && known && user.passwordHash === (await known)) {
    const token = generateSessionToken();
    await app.db.prisma.session.create({ data: { id: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + 336 * 3_600_000), ip: '127.0.0.1' } });
    return { cookie: `${SESSION_COOKIE}=${token}` };
  }
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const setCookie = [res.headers['set-cookie']].flat()[0]!;
  return { cookie: setCookie.split(';')[0]! };
}
