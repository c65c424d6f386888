import type { PrismaClient } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';

export interface EndSessionsOptions {
  db: PrismaClient;
  userId: number;
  /** The session asking: never ended here (signing out is POST /auth/logout). */
  currentSessionId: string;
  /** One session of the user's to end; omitted: every other session ("sign out everywhere else"). */
  sessionId?: string | undefined;
}

/** Ends one of the user's other sessions (404 when it is not theirs), or all of them; returns how many ended. */
export async function endSessions({ db, userId, currentSessionId, sessionId }: EndSessionsOptions) {
  if (sessionId === currentSessionId) throw badRequest('session: this is the session you are using; sign out instead');
  const { count } = await db.session.deleteMany({
    where: { userId, ...(sessionId !== undefined ? { id: sessionId } : { id: { not: currentSessionId } }) },
  });
  if (sessionId !== undefined && count === 0) throw notFound('session: not found');
  forgetCredentials(db);
  return count;
}
