import { Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import type { FileMember } from './board-file.js';

/** How a member of the file was matched: by address, Trello username, full name, or the importer's choice. */
export type MatchedBy = 'email' | 'username' | 'name' | 'chosen';

/** A member of an imported file matched to a user here. */
export interface MemberMatch {
  userId: number;
  name: string;
  by: MatchedBy;
}

/** Someone the importer may match a member to. */
export interface Candidate {
  userId: number;
  name: string;
  email: string;
}

/** The importer's own choices: member key → user id, or null to leave the member out (not matched). */
export type ChosenMatches = Record<string, number | null>;

/** Candidates the preview lists at most (a site admin's "anyone" is everyone; the automatic matches and choices are always listed). */
const LISTED = 500;

/**
 * Who the importer may match a member to: themselves and the active users they already share a
 * board with (a site admin: any active user). So an import cannot be used to find out who has an
 * account, nor to pull strangers onto a board.
 */
const candidateSql = (actor: Actor) => Prisma.sql`u.status = 'active' AND (u.id = ${actor.userId} OR ${actor.siteAdmin} OR EXISTS (
  SELECT 1 FROM "BoardMember" mine JOIN "BoardMember" theirs ON theirs."boardId" = mine."boardId"
  WHERE mine."userId" = ${actor.userId} AND theirs."userId" = u.id))`;

const fold = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** A map from key to the one user it names, or to null when it names several (then it matches no one). */
function uniqueBy<T>(users: T[], keyOf: (u: T) => string) {
  const map = new Map<string, T | null>();
  for (const u of users) {
    const key = keyOf(u);
    map.set(key, map.has(key) ? null : u);
  }
  return map;
}

/**
 * The file's members matched to users. With `auto`, by e-mail address, else by a Trello username
 * equal to the part before @ of exactly one candidate's address, else by a full name equal
 * (ignoring case and spacing) to exactly one candidate's name; without it, only the importer, by
 * address. `chosen` overrides either, member by member (null: left out); a key that is not a
 * member of the file, or a user the importer may not pick (candidateSql), is 400. Also answers
 * the candidates a preview offers.
 */
export async function matchMembers({ db, actor, members, auto, chosen = {} }: { db: DbClient; actor: Actor; members: FileMember[]; auto: boolean; chosen?: ChosenMatches }): Promise<{ matches: Map<string, MemberMatch>; candidates: Candidate[] }> {
  const keys = new Set(members.map((m) => m.key));
  for (const key of Object.keys(chosen)) if (!keys.has(key)) throw badRequest(`members.${key}: not a member of the file (use the keys the preview lists)`);
  const considered = auto ? members : members.filter((m) => m.email?.toLowerCase() === actor.email.toLowerCase());
  const emails = [...new Set(considered.map((m) => m.email?.toLowerCase()).filter((e): e is string => !!e))];
  const usernames = [...new Set(considered.map((m) => m.username?.toLowerCase()).filter((u): u is string => !!u))];
  const names = auto ? [...new Set(considered.map((m) => fold(m.name)))] : [];
  const picked = [...new Set(Object.values(chosen).filter((id): id is number => id !== null))];
  const where = candidateSql(actor);

  // Candidates named by the file (by address, local part or name) or by the choices; the folding of names is done here, not in SQL.
  const found = await db.$queryRaw<Candidate[]>`
    SELECT u.id AS "userId", u.name, u.email FROM "User" u
    WHERE ${where} AND (lower(u.email) = ANY(${emails}::text[]) OR lower(split_part(u.email, '@', 1)) = ANY(${usernames}::text[])
      OR lower(regexp_replace(btrim(u.name), '\\s+', ' ', 'g')) = ANY(${names}::text[]) OR u.id = ANY(${picked}::int[]))
    ORDER BY u.id`;
  const pickable = new Map(found.map((u) => [u.userId, u]));
  for (const [key, id] of Object.entries(chosen)) {
    if (id !== null && !pickable.has(id)) throw badRequest(`members.${key}: user ${id} is not someone you may pick (yourself, or people you share a board with)`);
  }

  const byEmail = uniqueBy(found, (u) => u.email.toLowerCase());
  const byLocalPart = uniqueBy(found, (u) => u.email.split('@')[0]!.toLowerCase());
  const byName = uniqueBy(found, (u) => fold(u.name));
  const matches = new Map<string, MemberMatch>();
  const consideredKeys = new Set(considered.map((m) => m.key));
  for (const m of members) {
    if (Object.hasOwn(chosen, m.key)) {
      const id = chosen[m.key]!;
      if (id !== null) matches.set(m.key, { userId: id, name: pickable.get(id)!.name, by: 'chosen' });
      continue;
    }
    if (!consideredKeys.has(m.key)) continue;
    const email = m.email ? byEmail.get(m.email.toLowerCase()) : undefined;
    const username = m.username ? byLocalPart.get(m.username.toLowerCase()) : undefined;
    const name = auto ? byName.get(fold(m.name)) : undefined;
    const [user, by] = email ? [email, 'email' as const] : username ? [username, 'username' as const] : name ? [name, 'name' as const] : [null, null];
    if (user && by) matches.set(m.key, { userId: user.userId, name: user.name, by });
  }

  const listed = await db.$queryRaw<Candidate[]>`
    SELECT u.id AS "userId", u.name, u.email FROM "User" u WHERE ${where} ORDER BY lower(u.name), u.id LIMIT ${LISTED}`;
  const inList = new Set(listed.map((u) => u.userId));
  const candidates = [...listed, ...found.filter((u) => !inList.has(u.userId) && [...matches.values()].some((m) => m.userId === u.userId))];
  return { matches, candidates };
}
