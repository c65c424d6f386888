import type { Prisma, User } from '../../generated/prisma/client.js';
import type { PrismaClient } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';
import { hashPassword } from '../credentials/passwords.js';

/**
 * Runs the new user's creation (`create`) in a transaction of the caller's, together with what
 * other modules do on sign-up (boards: accept the invitations sent to the address). Accounts sit
 * below those modules, so they hand their part in rather than being imported here.
 */
export type SignUp = (create: (tx: Prisma.TransactionClient) => Promise<User>) => Promise<User>;

export interface CreateUserOptions {
  db: PrismaClient;
  /** Stored trimmed and lower-cased, whatever the caller passes. */
  email: string;
  /**
   * Hashed here (argon2id); or `passwordHash`, an argon2 hash made earlier (imports, test factories);
   * or `withoutPassword`: the user cannot sign in until they set one through a set-up link.
   */
  password?: string | undefined;
  passwordHash?: string | undefined;
  withoutPassword?: boolean | undefined;
  name?: string | undefined;
  siteAdmin?: boolean | undefined;
  /** What else happens in the user's transaction; by default nothing (a plain transaction). */
  signUp?: SignUp | undefined;
}

/** A new active user; 409 when the address is taken. What other modules do on sign-up (accepting invitations) runs in `signUp`. */
export async function createUser({ db, email: given, password, passwordHash: givenHash, withoutPassword = false, name, siteAdmin = false, signUp }: CreateUserOptions) {
  const email = given.trim().toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw conflict('email: already registered');
  if (password === undefined && givenHash === undefined && !withoutPassword) throw new Error('createUser: a password, a password hash or withoutPassword is required');
  const passwordHash = givenHash ?? (password !== undefined ? await hashPassword(password) : null);
  const create = (tx: Prisma.TransactionClient) => tx.user.create({ data: { email, name: name ?? email.split('@')[0]!, passwordHash, siteAdmin } });
  return signUp ? signUp(create) : db.$transaction(create);
}
