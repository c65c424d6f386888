import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3): passwords are low-entropy, so slow on purpose. */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  // Without a hash (deleted user) still spend the time, so timing does not tell which emails exist.
  if (!hash) {
    await argon2.hash(password, { type: argon2.argon2id });
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
