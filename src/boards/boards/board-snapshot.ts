import type { DbClient } from '../../platform/db.js';
import type { Reach } from '../access.js';
import { cardSummaryCtes } from '../json/card-json.js';
import { iso, jsonArray, jsonObject, jsonText } from '../json/compact-json.js';

/**
 * `GET /boards/{id}` built by PostgreSQL as JSON text in one statement, sent as is: the hot path
 * of the API, where building it from Prisma rows and re-serialising it cost most of the time.
 * A test holds it equal to test/boards/reference-presenters.ts's presentBoardDetail (from Prisma rows).
 * Its `roles` column lists the members' roles (`userId:role,…`) for the board cache.
 * Parameters: $1 the board, $2 the caller's user, $3 their key's boards (null: not limited); the
 * caller's role and reach are tb_board_role's (sql/board-role.sql), so no row when out of reach.
 */
export const SNAPSHOT_SQL = `
WITH ${cardSummaryCtes('c."boardId" = $1 AND NOT c.archived')}
SELECT ${jsonObject({
  id: 'b.id',
  name: 'b.name',
  description: 'b.description',
  color: 'b.color',
  archived: 'b.archived',
  role: 'me.role',
  createdAt: iso('b."createdAt"'),
  updatedAt: iso('b."updatedAt"'),
  lists: jsonText(`(SELECT ${jsonArray(
    jsonObject({
      id: 'l.id',
      boardId: 'l."boardId"',
      name: 'l.name',
      position: 'l.position',
      archived: 'l.archived',
      cards: jsonText(`(SELECT ${jsonArray('s.json', 's.position')} FROM summary s WHERE s."listId" = l.id)`),
    }),
    'l.position',
  )} FROM "List" l WHERE l."boardId" = b.id AND NOT l.archived)`),
  labels: jsonText(`(SELECT ${jsonArray(jsonObject({ id: 'x.id', boardId: 'x."boardId"', name: 'x.name', color: 'x.color', shade: 'x.shade' }), 'x.id')} FROM "Label" x WHERE x."boardId" = b.id)`),
  customFields: jsonText(`(SELECT ${jsonArray(
    jsonObject({ id: 'f.id', boardId: 'f."boardId"', name: 'f.name', type: 'f.type', options: `coalesce(f.options, '{}')` }),
    'f.id',
  )} FROM "CustomField" f WHERE f."boardId" = b.id)`),
  members: jsonText(`(SELECT ${jsonArray(
    jsonObject({ userId: 'm."userId"', name: 'u.name', email: 'u.email', role: 'm.role', avatarUrl: `'/api/avatars/' || u."avatarKey"` }),
    'm."createdAt", m."userId"',
  )} FROM "BoardMember" m JOIN "User" u ON u.id = m."userId" WHERE m."boardId" = b.id)`),
})} AS json,
  (SELECT string_agg(m."userId" || ':' || m.role, ',') FROM "BoardMember" m WHERE m."boardId" = b.id) AS roles
FROM "Board" b, tb_board_role($1, $2, $3::int[]) AS me(role)
WHERE b.id = $1 AND me.role IS NOT NULL`;

/** The board fetch as built for one member, with what the board cache needs to serve the others. */
export interface BoardSnapshot {
  json: string;
  /** Every member's role by user id (the snapshot's `members`). */
  roles: Map<number, string>;
}

/**
 * The board fetch's JSON text, or null when the board is out of the caller's reach (reach is part
 * of the statement, so reach and content are read together).
 */
export async function boardSnapshotJson(db: DbClient, boardId: number, who: Reach): Promise<string | null> {
  return (await readBoardSnapshot(db, boardId, who))?.json ?? null;
}

/** boardSnapshotJson with the members' roles read from the same statement. */
export async function readBoardSnapshot(db: DbClient, boardId: number, who: Reach): Promise<BoardSnapshot | null> {
  const rows = await db.$queryRawUnsafe<{ json: string; roles: string | null }[]>(SNAPSHOT_SQL, boardId, who.userId, who.boardIds);
  const row = rows[0];
  if (row === undefined) return null;
  // Written compact by the statement itself (jsonObject, jsonArray): sent as it comes.
  const roles = new Map((row.roles ?? '').split(',').filter(Boolean).map((pair) => {
    const [userId, role] = pair.split(':');
    return [Number(userId), role!] as const;
  }));
  return { json: row.json, roles };
}
