import type { PrismaClient } from '../../platform/db.js';

/** A user's live sessions, most recently active first. */
export async function listSessions({ db, userId }: { db: PrismaClient; userId: number }) {
  const sessions = await db.session.findMany({ where: { userId, expiresAt: { gt: new Date() } } });
  const seen = (s: { lastSeenAt: Date | null; createdAt: Date }) => (s.lastSeenAt ?? s.createdAt).getTime();
  return sessions.sort((a, b) => seen(b) - seen(a) || b.createdAt.getTime() - a.createdAt.getTime());
}
