import { randomBytes } from 'node:crypto';
import { hashToken } from '../../accounts/credentials/tokens.js';
import type { DbClient } from '../../platform/db.js';

/**
 * A new unsubscribe link's token for one mail to the person (uns_ and 40 hex digits): only its
 * SHA-256 is stored, as for every token here; the token itself is only in that mail.
 */
export async function createUnsubscribeToken({ db, userId }: { db: DbClient; userId: number }): Promise<string> {
  const token = `uns_${randomBytes(20).toString('hex')}`;
  await db.unsubscribeLink.create({ data: { tokenHash: hashToken(token), userId } });
  return token;
}
