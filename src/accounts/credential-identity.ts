import type { PrismaClient } from '../platform/db.js';
import { checkApiKey, resolveSession } from './resolve-credential.js';

/**
 * Whose budget a request's personal key or session spends, read the way the `/api` gate reads
 * it (Authorization decides when present, else the session cookie): `k:<keyId>` or
 * `u:<userId>`, else null (none, or one that does not work). Answered from the credential cache
 * when it can be, and the gate that runs next reuses the answer, unknown tokens included.
 */
export async function credentialIdentity({
  db,
  authorization,
  sessionToken,
}: {
  db: PrismaClient;
  authorization: string | undefined;
  sessionToken: string | undefined;
}): Promise<string | null> {
  if (authorization !== undefined) {
    const token = /^Bearer +(tsk_\S+)$/i.exec(authorization)?.[1];
    if (!token) return null;
    const checked = await checkApiKey({ db, token });
    return 'key' in checked ? `k:${checked.key.keyId}` : null;
  }
  if (!sessionToken) return null;
  const session = await resolveSession({ db, token: sessionToken });
  return session ? `u:${session.userId}` : null;
}
