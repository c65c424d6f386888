import type { DbClient } from '../platform/db.js';
import { conflict } from '../platform/errors.js';
import { hashPassword } from './passwords.js';

export interface CreateUserOptions {
  db: DbClient;
  /** Stored trimmed and lower-cased, whatever the caller passes. */
  email: string;
  password: string;
  name?: string | undefined;
  siteAdmin?: boolean | undefined;
}

/** A new active user; 409 when the address is taken. */
export async function createUser({ db, email: given, password, name, siteAdmin = false }: CreateUserOptions) {
  const email = given.trim().toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw conflict('email: already registered');
  return db.user.create({
    data: {
      email,
      name: name ?? email.split('@')[0]!,
      passwordHash: await hashPassword(password),
      siteAdmin,
    },
  });
}
