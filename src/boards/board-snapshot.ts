import type { DbClient } from '../platform/db.js';
import { cardSummaryCtes, iso } from './cards/card-json.js';

/**
 * `GET /boards/{id}` built by PostgreSQL as JSON text in one statement, sent as is: the hot path
 * of the API, where building it from Prisma rows and re-serialising it cost most of the time.
 * It must stay identical to `presentBoardDetail` (the reference); a test compares the two.
 */
const SNAPSHOT_SQL = `
WITH ${cardSummaryCtes('c."boardId" = $1 AND NOT c.archived')}
SELECT json_build_object(
  'id', b.id, 'name', b.name, 'description', b.description, 'archived', b.archived, 'role', me.role,
  'createdAt', ${iso('b."createdAt"')}, 'updatedAt', ${iso('b."updatedAt"')},
  'lists', coalesce((
    SELECT json_agg(json_build_object(
      'id', l.id, 'boardId', l."boardId", 'name', l.name, 'position', l.position, 'archived', l.archived,
      'cards', coalesce((SELECT json_agg(s.json ORDER BY s.position) FROM summary s WHERE s."listId" = l.id), '[]'::json)
    ) ORDER BY l.position)
    FROM "List" l WHERE l."boardId" = b.id AND NOT l.archived), '[]'::json),
  'labels', coalesce((
    SELECT json_agg(json_build_object('id', x.id, 'boardId', x."boardId", 'name', x.name, 'color', x.color) ORDER BY x.id)
    FROM "Label" x WHERE x."boardId" = b.id), '[]'::json),
  'customFields', coalesce((
    SELECT json_agg(json_build_object('id', f.id, 'boardId', f."boardId", 'name', f.name, 'type', f.type, 'options', f.options) ORDER BY f.id)
    FROM "CustomField" f WHERE f."boardId" = b.id), '[]'::json),
  'members', coalesce((
    SELECT json_agg(json_build_object('userId', m."userId", 'name', u.name, 'email', u.email, 'role', m.role) ORDER BY m."createdAt", m."userId")
    FROM "BoardMember" m JOIN "User" u ON u.id = m."userId" WHERE m."boardId" = b.id), '[]'::json)
)::text AS json
FROM "Board" b JOIN "BoardMember" me ON me."boardId" = b.id AND me."userId" = $2
WHERE b.id = $1`;

/** The board fetch as built for one member, with what the board cache needs to serve the others. */
export interface BoardSnapshot {
  json: string;
  /** Every member's role by user id (the snapshot's `members`). */
  roles: Map<number, string>;
}

/**
 * The board fetch's JSON text, or null when the user is not a member (the membership is part of
 * the statement, so reach and content are read together). A limited key's board list is the
 * caller's to check.
 */
export async function boardSnapshotJson(db: DbClient, boardId: number, userId: number): Promise<string | null> {
  return (await readBoardSnapshot(db, boardId, userId))?.json ?? null;
}

/** boardSnapshotJson with the members' roles read from the same statement. */
export async function readBoardSnapshot(db: DbClient, boardId: number, userId: number): Promise<BoardSnapshot | null> {
  const rows = await db.$queryRawUnsafe<{ json: string }[]>(SNAPSHOT_SQL, boardId, userId);
  const text = rows[0]?.json;
  if (text === undefined) return null;
  // PostgreSQL spaces its json text (`{"id" : 1, …}`, `, \n ` between aggregated rows); every other
  // response is JSON.stringify's compact form. Re-serialising is the exact way to match it (numbers
  // too) and the cheapest one measured: about 1.7 ms for a board of 200 cards, below a tokenizer in JS.
  const value = JSON.parse(text) as { members: { userId: number; role: string }[] };
  return { json: JSON.stringify(value), roles: new Map(value.members.map((m) => [m.userId, m.role])) };
}
