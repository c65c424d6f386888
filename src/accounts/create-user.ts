import { acceptInvitations } from '../boards/members/members.js';
import { changeBoard } from '../boards/activity/change-board.js';
import type { EventBus } from '../boards/activity/event-bus.js';
import type { PrismaClient } from '../platform/db.js';
import { conflict } from '../platform/errors.js';
import { hashPassword } from './passwords.js';

export interface CreateUserOptions {
  db: PrismaClient;
  /** Stored trimmed and lower-cased, whatever the caller passes. */
  email: string;
  /** Hashed here (argon2id); or `passwordHash`, an argon2 hash made earlier (imports, test factories). */
  password?: string | undefined;
  passwordHash?: string | undefined;
  name?: string | undefined;
  siteAdmin?: boolean | undefined;
  /** Where board events go (the server's bus); without one they are only recorded. */
  events?: EventBus | undefined;
}

/** A new active user, a member of the boards its address was invited to; 409 when the address is taken. */
export async function createUser({ db, email: given, password, passwordHash: givenHash, name, siteAdmin = false, events }: CreateUserOptions) {
  const email = given.trim().toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw conflict('email: already registered');
  if (password === undefined && givenHash === undefined) throw new Error('createUser: a password or a password hash is required');
  const passwordHash = givenHash ?? (await hashPassword(password!));
  // The new member is announced on the boards the address was invited to, attributed to the user.
  return changeBoard({ db, events, actor: null }, async (tx, record) => {
    const user = await tx.user.create({ data: { email, name: name ?? email.split('@')[0]!, passwordHash, siteAdmin } });
    await acceptInvitations(tx, (input) => record({ ...input, actor: user }), user);
    return user;
  });
}
