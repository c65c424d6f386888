import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { requireRole } from '../access.js';
import type { FieldValue } from '../fit-field-value.js';
import type { BOARD_COLORS } from '../schemas.js';
import { BOARD_FILE_FORMAT, type BoardFile, type FileCard } from './board-file.js';

type BoardColor = (typeof BOARD_COLORS)[number];

const byPlace = <T extends { archived: boolean; position: number; id: number }>(rows: T[]) =>
  [...rows].sort((a, b) => Number(a.archived) - Number(b.archived) || a.position - b.position || a.id - b.id);

/**
 * A whole board as our own board file, read without an actor: for the operator's backup (the
 * admin CLI) and for exportBoard, which checks the caller's reach first. null when it does not exist.
 * Members are keyed `u<id>`; a comment's author who is no longer on the board is named, with no address.
 */
export async function unsafeBoardFile(db: DbClient, boardId: number): Promise<BoardFile | null> {
  const board = await db.board.findUnique({
    where: { id: boardId },
    include: {
      members: { include: { user: { select: { name: true, email: true } } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] },
      labels: { orderBy: { id: 'asc' } },
      customFields: { orderBy: { id: 'asc' } },
      lists: {
        include: {
          cards: {
            include: {
              labels: { select: { labelId: true }, orderBy: { labelId: 'asc' } },
              assignees: { select: { userId: true }, orderBy: { userId: 'asc' } },
              fieldValues: { select: { fieldId: true, value: true }, orderBy: { fieldId: 'asc' } },
              checklists: { orderBy: { position: 'asc' }, include: { items: { orderBy: { position: 'asc' } } } },
              comments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
              attachments: { orderBy: { id: 'asc' } },
            },
          },
        },
      },
    },
  });
  if (!board) return null;
  const members: BoardFile['members'] = board.members.map((m) => ({ key: `u${m.userId}`, name: m.user.name, email: m.user.email, username: null, role: m.role }));
  const onBoard = new Set(board.members.map((m) => m.userId));
  const authors = new Map<number, string>();
  // Authors without an account (a ticket's requester) are known by name alone: one key per name.
  const named = new Map<string, string>();
  for (const list of board.lists) {
    for (const card of list.cards) {
      for (const c of card.comments) {
        if (c.authorId === null) named.set(c.authorName, named.get(c.authorName) ?? `n${named.size + 1}`);
        else if (!onBoard.has(c.authorId)) authors.set(c.authorId, c.authorName);
      }
    }
  }
  for (const [userId, name] of authors) members.push({ key: `u${userId}`, name: name || 'Former member', email: null, username: null, role: null });
  for (const [name, key] of named) members.push({ key, name, email: null, username: null, role: null });
  const authorKey = (c: { authorId: number | null; authorName: string }) => (c.authorId === null ? named.get(c.authorName)! : `u${c.authorId}`);

  return {
    format: BOARD_FILE_FORMAT,
    version: 1,
    exportedAt: new Date().toISOString(),
    // Written only through boardColor (create, update, import), so the column holds one of BOARD_COLORS.
    board: { name: board.name, description: board.description, color: board.color as BoardColor, archived: board.archived },
    labels: board.labels.map((l) => ({ key: String(l.id), name: l.name, color: l.color, shade: l.color ? l.shade : null })),
    customFields: board.customFields.map((f) => ({ key: String(f.id), name: f.name, type: f.type, options: f.options })),
    members,
    lists: byPlace(board.lists).map((list) => ({
      name: list.name,
      archived: list.archived,
      position: list.position,
      cards: byPlace(list.cards).map(
        (card): FileCard => ({
          title: card.title,
          description: card.description,
          archived: card.archived,
          position: card.position,
          dueAt: card.dueAt?.toISOString() ?? null,
          createdAt: card.createdAt.toISOString(),
          labels: card.labels.map((l) => String(l.labelId)),
          members: card.assignees.map((a) => `u${a.userId}`),
          // Stored only as fitFieldValue makes them (fit-field-value.ts): a string, number or boolean.
          fieldValues: Object.fromEntries(card.fieldValues.map((v) => [String(v.fieldId), v.value as FieldValue])),
          checklists: card.checklists.map((c) => ({ name: c.name, items: c.items.map((i) => ({ name: i.name, checked: i.checked })) })),
          comments: card.comments.map((c) => ({ author: authorKey(c), authorName: c.authorName, text: c.text, createdAt: c.createdAt.toISOString() })),
          attachments: card.attachments.map((a) => ({ filename: a.filename, mimeType: a.mimeType, size: a.size, ...(a.url === null ? {} : { url: a.url }) })),
        }),
      ),
    })),
  };
}

/** The board as our own board file, for anyone who can read it (404 otherwise). */
export async function exportBoard({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }): Promise<BoardFile> {
  await requireRole(db, actor, boardId);
  const file = await unsafeBoardFile(db, boardId);
  if (!file) throw notFound('board: not found');
  return file;
}
