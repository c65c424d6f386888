import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import type { FileMember } from './board-file.js';

/** A member of an imported file matched to a user here. */
export interface MemberMatch {
  userId: number;
  name: string;
}

/**
 * The file's members matched to users, when the importer asks: by e-mail address, else by a
 * Trello username equal to the part before @ of exactly one address. Only users the importer
 * already shares a board with (or themselves; a site admin: any active user) are candidates, so
 * an import cannot be used to find out who has an account, nor to pull strangers onto a board.
 */
export async function matchMembers({ db, actor, members }: { db: DbClient; actor: Actor; members: FileMember[] }): Promise<Map<string, MemberMatch>> {
  const emails = [...new Set(members.map((m) => m.email?.toLowerCase()).filter((e): e is string => !!e))];
  const usernames = [...new Set(members.map((m) => m.username?.toLowerCase()).filter((u): u is string => !!u))];
  const matches = new Map<string, MemberMatch>();
  if (emails.length === 0 && usernames.length === 0) return matches;
  const users = await db.$queryRaw<{ id: number; name: string; email: string }[]>`
    SELECT u.id, u.name, u.email FROM "User" u
    WHERE u.status = 'active'
      AND (u.email = ANY(${emails}::text[]) OR lower(split_part(u.email, '@', 1)) = ANY(${usernames}::text[]))
      AND (u.id = ${actor.userId} OR ${actor.siteAdmin} OR EXISTS (
        SELECT 1 FROM "BoardMember" mine JOIN "BoardMember" theirs ON theirs."boardId" = mine."boardId"
        WHERE mine."userId" = ${actor.userId} AND theirs."userId" = u.id))
    ORDER BY u.id`;
  const byEmail = new Map(users.map((u) => [u.email, u]));
  const byLocalPart = new Map<string, (typeof users)[number] | null>();
  for (const u of users) {
    const local = u.email.split('@')[0]!.toLowerCase();
    byLocalPart.set(local, byLocalPart.has(local) ? null : u); // two users with that name: neither
  }
  for (const m of members) {
    const user = (m.email && byEmail.get(m.email.toLowerCase())) || (m.username && byLocalPart.get(m.username.toLowerCase())) || null;
    if (user) matches.set(m.key, { userId: user.id, name: user.name });
  }
  return matches;
}
