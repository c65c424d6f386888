import type { DbClient } from '../../platform/db.js';
import { generateSessionToken, hashToken } from '../credentials/tokens.js';

export interface OpenSessionOptions {
  db: DbClient;
  userId: number;
  ip: string | null;
  /** The browser's User-Agent header, kept (cut to 300 characters) for the user's session list. */
  userAgent?: string | undefined;
  ttlHours: number;
}

/** A new web session for a user whose identity is already proven: the cookie token (only its SHA-256 is stored). */
export async function openSession({ db, userId, ip, userAgent, ttlHours }: OpenSessionOptions) {
  const token = generateSessionToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  await db.session.create({ data: { id: hashToken(token), userId, expiresAt, ip, userAgent: userAgent?.slice(0, 300) || null } });
  return { token, expiresAt };
}
