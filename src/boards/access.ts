import { Prisma } from '../generated/prisma/client.js';
import type { Actor } from '../accounts/credentials/auth.js';
import type { DbClient } from '../platform/db.js';
import { notFound } from '../platform/errors.js';
import type { BoardRole } from './policy.js';
import { type AttachmentRow, CARD_COLUMNS, type CardRow, type FieldRow, type LabelRow, type ListRow } from './rows.js';

/** Whose reach: the user, and the boards their key is limited to (null: every board they belong to). */
export type Reach = Pick<Actor, 'userId' | 'boardIds'>;

/*
 * A board's reach is one text, tb_reachable_boards (sql/board-role.sql), and tb_board_role, which
 * asks it for one board. Everything here asks them; TypeScript keeps only the key's half for the
 * board cache, which answers without a query (keyReaches). test/boards/reach-forms.test.ts holds
 * that equal to the SQL; test/platform/one-text-per-rule.test.ts finds a copy of either anywhere else.
 */

/**
 * The boards an actor may reach, with its role on each: boards its user is a member of now,
 * narrowed to a limited key's chosen boards. A board outside them is simply not found (404), the
 * same answer as for a board that does not exist. A limited key whose boards are gone reaches
 * nothing: it never widens to all boards.
 */
export async function reachableBoards(db: DbClient, actor: Reach): Promise<Map<number, BoardRole>> {
  const rows = await db.$queryRaw<{ board_id: number; role: BoardRole }[]>`
    SELECT board_id, role FROM tb_reachable_boards(${actor.userId}::int, ${actor.boardIds}::int[])`;
  return new Map(rows.map((r) => [r.board_id, r.role]));
}

/**
 * The ids of the boards an actor may reach (reachableBoards' rule), in one statement; with
 * `activeOnly`, without its archived boards.
 */
export async function reachableBoardIds(db: DbClient, actor: Reach, { activeOnly = false }: { activeOnly?: boolean } = {}): Promise<number[]> {
  const active = activeOnly ? Prisma.sql`JOIN "Board" b ON b.id = r.board_id AND NOT b.archived` : Prisma.empty;
  const rows = await db.$queryRaw<{ board_id: number }[]>`
    SELECT r.board_id FROM tb_reachable_boards(${actor.userId}::int, ${actor.boardIds}::int[]) r ${active}`;
  return rows.map((r) => r.board_id);
}

/**
 * Whether the actor's key lets it reach `boardId` (always, for a session or an unlimited key):
 * the key half of reach, for the board cache, which knows the members but not the key.
 */
export function keyReaches(actor: Reach, boardId: number): boolean {
  return !actor.boardIds || actor.boardIds.includes(boardId);
}

/**
 * The actor's role on the board in `boardColumn`, or NULL when it is out of reach: tb_board_role
 * (sql/board-role.sql), the one definition of reach and role, which the card statements ask too.
 */
export const roleSql = (actor: Reach, boardColumn: Prisma.Sql) =>
  Prisma.sql`tb_board_role(${boardColumn}, ${actor.userId}::int, ${actor.boardIds}::int[])`;

/** The actor's role on a board, or null when the board is out of its reach. */
export async function roleOn(db: DbClient, actor: Actor, boardId: number): Promise<BoardRole | null> {
  const [row] = await db.$queryRaw<{ role: BoardRole | null }[]>`SELECT ${roleSql(actor, Prisma.sql`${boardId}::int`)} AS role`;
  return row?.role ?? null;
}

/** The actor's role on a board it can reach; 404 otherwise. */
export async function requireRole(db: DbClient, actor: Actor, boardId: number, what = 'board'): Promise<BoardRole> {
  const role = await roleOn(db, actor, boardId);
  if (!role) throw notFound(`${what}: not found`);
  return role;
}

/** The row with the actor's role on its board (tb_board_role: null when out of reach). */
function reachable<T extends { boardId: number; role: BoardRole | null }>(row: T | undefined): (Omit<T, 'role'> & { role: BoardRole }) | null {
  if (!row || !row.role) return null;
  return row as Omit<T, 'role'> & { role: BoardRole };
}

/** A list on a board the actor can reach, with the actor's role there (one query); 404 otherwise. */
export async function requireList(db: DbClient, actor: Actor, listId: number) {
  const rows = await db.$queryRaw<(ListRow & { role: BoardRole | null })[]>`
    SELECT l.*, ${roleSql(actor, Prisma.sql`l."boardId"`)} AS role FROM "List" l WHERE l.id = ${listId}`;
  const found = reachable(rows[0]);
  if (!found) throw notFound('list: not found');
  const { role, ...list } = found;
  return { list: list as ListRow, role };
}

/** A card on a board the actor can reach, with the actor's role there (one query); 404 otherwise. */
export async function requireCard(db: DbClient, actor: Actor, cardId: number) {
  const rows = await db.$queryRaw<(CardRow & { role: BoardRole | null })[]>`
    SELECT ${CARD_COLUMNS}, ${roleSql(actor, Prisma.sql`c."boardId"`)} AS role FROM "Card" c WHERE c.id = ${cardId}`;
  const found = reachable(rows[0]);
  if (!found) throw notFound('card: not found');
  const { role, ...card } = found;
  return { card: card as CardRow, role };
}

/**
 * A row found by `query` (which must select `"boardId"` and the actor's `role` on that board, roleSql) on
 * a board the actor can reach; 404 naming `what` otherwise.
 */
export async function requireOnBoard<T extends { boardId: number }>(db: DbClient, actor: Actor, what: string, query: Prisma.Sql) {
  const rows = await db.$queryRaw<(T & { role: BoardRole | null })[]>(query);
  const found = reachable(rows[0]);
  if (!found) throw notFound(`${what}: not found`);
  const { role, ...row } = found;
  return { row: row as unknown as T, role };
}

export const requireLabel = (db: DbClient, actor: Actor, labelId: number) =>
  requireOnBoard<LabelRow>(db, actor, 'label', Prisma.sql`
    SELECT x.id, x."boardId", x.name, x.color::text AS color, x.shade::text AS shade, ${roleSql(actor, Prisma.sql`x."boardId"`)} AS role
    FROM "Label" x WHERE x.id = ${labelId}`);

export const requireCustomField = (db: DbClient, actor: Actor, fieldId: number) =>
  requireOnBoard<FieldRow>(db, actor, 'custom field', Prisma.sql`
    SELECT x.id, x."boardId", x.name, x.type::text AS type, x.options, ${roleSql(actor, Prisma.sql`x."boardId"`)} AS role
    FROM "CustomField" x WHERE x.id = ${fieldId}`);

export const requireChecklist = (db: DbClient, actor: Actor, checklistId: number) =>
  requireOnBoard<{ id: number; cardId: number; boardId: number }>(db, actor, 'checklist', Prisma.sql`
    SELECT x.id, x."cardId", c."boardId", ${roleSql(actor, Prisma.sql`c."boardId"`)} AS role
    FROM "Checklist" x JOIN "Card" c ON c.id = x."cardId" WHERE x.id = ${checklistId}`);

export const requireItem = (db: DbClient, actor: Actor, itemId: number) =>
  requireOnBoard<{ id: number; checklistId: number; cardId: number; boardId: number }>(db, actor, 'item', Prisma.sql`
    SELECT x.id, x."checklistId", l."cardId", c."boardId", ${roleSql(actor, Prisma.sql`c."boardId"`)} AS role
    FROM "ChecklistItem" x JOIN "Checklist" l ON l.id = x."checklistId" JOIN "Card" c ON c.id = l."cardId"
    WHERE x.id = ${itemId}`);

export const requireComment = (db: DbClient, actor: Actor, commentId: number) =>
  requireOnBoard<{ id: number; cardId: number; authorId: number; boardId: number }>(db, actor, 'comment', Prisma.sql`
    SELECT x.id, x."cardId", x."authorId", c."boardId", ${roleSql(actor, Prisma.sql`c."boardId"`)} AS role
    FROM "Comment" x JOIN "Card" c ON c.id = x."cardId" WHERE x.id = ${commentId}`);

export const requireAttachment = (db: DbClient, actor: Actor, attachmentId: number) =>
  requireOnBoard<AttachmentRow>(db, actor, 'attachment', Prisma.sql`
    SELECT x.id, x."cardId", c."boardId", x.filename, x."mimeType", x.size, x."storageKey", x.url, x."createdAt", ${roleSql(actor, Prisma.sql`c."boardId"`)} AS role
    FROM "Attachment" x JOIN "Card" c ON c.id = x."cardId" WHERE x.id = ${attachmentId}`);
