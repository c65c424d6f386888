import { changeBoard } from '../activity/change-board.js';
import type { Tx } from '../../platform/db.js';
import { cutText } from '../../platform/schemas.js';
import type { BoardContext } from '../context.js';
import { presentBoard } from '../presenters.js';
import { TEXT_LIMIT } from '../schemas.js';
import { cardEnds, listEnd } from '../target-position.js';
import type { BoardFile, FileCard, FileMember } from './board-file.js';
import type { MemberMatch } from './match-members.js';

/**
 * Rows one statement writes at most. Every statement of an import stays far inside the database's
 * budget for one (DATABASE_QUERY_TIMEOUT_MS, 2 s): one INSERT of 50,000 cards went past it, and the
 * import was a 503. 1,000 cards take ~0.05 s on PostgreSQL and ~0.15 s on the embedded database.
 */
const CHUNK_ROWS = 1000;
/** Cards whose search documents one statement makes (tokenising a card costs more than inserting it). */
const SEARCH_CHUNK_ROWS = 500;
/**
 * An import's transaction: a 100,000-card board is some 200 statements, 10-40 s on a loaded
 * machine; a board change's usual 15 s would roll it back. Each statement keeps its own 2 s budget.
 */
const IMPORT_TRANSACTION = { timeout: 300_000, maxWait: 10_000 };

/**
 * Writes `rows` by chunks of `size`, one statement each. Between two, the event loop answers
 * others: the embedded database runs on this thread, and a statement there holds it.
 */
async function inChunks<T>(rows: T[], size: number, write: (chunk: T[], at: number) => Promise<unknown>) {
  for (let at = 0; at < rows.length; at += size) {
    await write(rows.slice(at, at + size), at);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** New ids of a table, taken from its sequence by chunks, so rows can refer to each other before they are written. */
async function newIds(tx: Tx, table: 'Label' | 'CustomField' | 'List' | 'Card' | 'Checklist', n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let at = 0; at < n; at += CHUNK_ROWS * 5) {
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::int AS id FROM generate_series(1, $1::int)`,
      Math.min(CHUNK_ROWS * 5, n - at),
    );
    for (const r of rows) ids.push(r.id);
  }
  return ids;
}

/** Text cut to what a description or comment holds, never through a surrogate pair. */
function cut(value: string) {
  return cutText(value, TEXT_LIMIT);
}

/** What the card says of assignees who are not users here (not matched, or not on the board). */
function namedAssignees(card: FileCard, members: Map<string, FileMember>, assignable: Map<string, number>) {
  const names = card.members.filter((k) => !assignable.has(k)).map((k) => {
    const m = members.get(k)!;
    return m.username ? `${m.name} (@${m.username})` : m.name;
  });
  return names.length ? `${card.description}${card.description ? '\n\n' : ''}**Assigned before the import:** ${names.join(', ')}` : card.description;
}

/**
 * A new board made from a board file in one transaction, with batched inserts (one statement per
 * table and CHUNK_ROWS rows, the event loop free between two): the importer is its admin; matched members join with their role (an admin's as a member), are
 * assigned and are the authors of their comments (dated as the file says); anyone else is named in the card's text (assignees), and is
 * the author of their comments by name alone, without an account (the file's authorName). Links become link attachments. Positions follow the board's scheme
 * (shift-positions.ts): non-archived lists and cards each at the end of their parent in the file's order (target-position.ts, as a CSV import's
 * cards), archived ones as the file says; checklists and items 0..n-1 in the file's order.
 * One `board.created` activity, as a board created by hand.
 */
export async function writeBoardFile(ctx: BoardContext & { file: BoardFile; matches: Map<string, MemberMatch> }) {
  const { file, matches, actor } = ctx;
  const members = new Map(file.members.map((m) => [m.key, m]));
  // Who may be assigned: matched members who join the board (role not null), and the importer.
  const assignable = new Map<string, number>();
  const joining = new Map<number, 'admin' | 'member' | 'observer'>();
  for (const m of file.members) {
    const match = matches.get(m.key);
    if (!match || m.role === null) continue;
    assignable.set(m.key, match.userId);
    // At most a member: an import must not make a colleague an admin of a board they never saw (the importer is its admin).
    if (match.userId !== actor.userId && !joining.has(match.userId)) joining.set(match.userId, m.role === 'admin' ? 'member' : m.role);
  }

  return changeBoard({ ...ctx, transaction: IMPORT_TRANSACTION }, async (tx, record) => {
    // Search documents are made once per card at the end, not once per comment and item (search/sql/card-search.sql).
    await tx.$executeRaw`SELECT set_config('tb.bulk_search', 'on', true)`;
    const board = await tx.board.create({
      data: { name: file.board.name, description: file.board.description, ...(file.board.color ? { color: file.board.color } : {}), archived: file.board.archived, members: { create: { userId: actor.userId, role: 'admin' } } },
    });
    if (joining.size) await tx.boardMember.createMany({ data: [...joining].map(([userId, role]) => ({ boardId: board.id, userId, role })) });

    const labelIds = await newIds(tx, 'Label', file.labels.length);
    const labelByKey = new Map(file.labels.map((l, i) => [l.key, labelIds[i]!]));
    await tx.$executeRaw`INSERT INTO "Label" (id, "boardId", name, color, shade)
      SELECT u.id, ${board.id}, u.name, u.color::"LabelColor", u.shade::"LabelShade"
        FROM unnest(${labelIds}::int[], ${file.labels.map((l) => l.name)}::text[], ${file.labels.map((l) => l.color)}::text[], ${file.labels.map((l) => l.shade ?? null)}::text[]) AS u(id, name, color, shade)`;

    const fieldIds = await newIds(tx, 'CustomField', file.customFields.length);
    const fieldByKey = new Map(file.customFields.map((f, i) => [f.key, fieldIds[i]!]));
    await tx.$executeRaw`INSERT INTO "CustomField" (id, "boardId", name, type, options, "updatedAt")
      SELECT u.id, ${board.id}, u.name, u.type::"CustomFieldType", ARRAY(SELECT jsonb_array_elements_text(u.options::jsonb)), now()
      FROM unnest(${fieldIds}::int[], ${file.customFields.map((f) => f.name)}::text[], ${file.customFields.map((f) => f.type)}::text[],
        ${file.customFields.map((f) => JSON.stringify(f.options))}::text[]) AS u(id, name, type, options)`;

    const listIds = await newIds(tx, 'List', file.lists.length);
    const nextList = await listEnd(tx, board.id);
    const listPositions = file.lists.map((l) => (l.archived ? l.position : nextList()));
    await inChunks(file.lists, CHUNK_ROWS, (lists, at) => tx.$executeRaw`INSERT INTO "List" (id, "boardId", name, position, archived, "updatedAt")
      SELECT u.id, ${board.id}, u.name, u.position, u.archived, now()
      FROM unnest(${listIds.slice(at, at + lists.length)}::int[], ${lists.map((l) => l.name)}::text[], ${listPositions.slice(at, at + lists.length)}::int[],
        ${lists.map((l) => l.archived)}::boolean[]) AS u(id, name, position, archived)`);

    const nextCard = await cardEnds(tx, listIds);
    const cards = file.lists.flatMap((list, l) =>
      list.cards.map((card) => ({ card, listId: listIds[l]!, position: card.archived ? card.position : nextCard(listIds[l]!) })),
    );
    const cardIds = await newIds(tx, 'Card', cards.length);
    await inChunks(cards, CHUNK_ROWS, (chunk, at) => tx.$executeRaw`INSERT INTO "Card" (id, "boardId", "listId", title, description, position, archived, "dueAt", "createdAt", "updatedAt")
      SELECT u.id, ${board.id}, u.list, u.title, u.description, u.position, u.archived, u.due, coalesce(u.made, now()), now()
      FROM unnest(${cardIds.slice(at, at + chunk.length)}::int[], ${chunk.map((c) => c.listId)}::int[], ${chunk.map((c) => c.card.title)}::text[],
        ${chunk.map((c) => cut(namedAssignees(c.card, members, assignable)))}::text[], ${chunk.map((c) => c.position)}::int[],
        ${chunk.map((c) => c.card.archived)}::boolean[], ${chunk.map((c) => c.card.dueAt)}::timestamptz[],
        ${chunk.map((c) => c.card.createdAt ?? null)}::timestamptz[]) AS u(id, list, title, description, position, archived, due, made)`);
    const cardLabels = cards.flatMap(({ card }, i) => [...new Set(card.labels)].map((k) => [cardIds[i]!, labelByKey.get(k)!] as const));
    await inChunks(cardLabels, CHUNK_ROWS * 5, (chunk) =>
      tx.$executeRaw`INSERT INTO "CardLabel" ("cardId", "labelId") SELECT * FROM unnest(${chunk.map((x) => x[0])}::int[], ${chunk.map((x) => x[1])}::int[])`);
    const assignees = cards.flatMap(({ card }, i) => [...new Set(card.members.filter((k) => assignable.has(k)).map((k) => assignable.get(k)!))].map((u) => [cardIds[i]!, u] as const));
    await inChunks(assignees, CHUNK_ROWS * 5, (chunk) =>
      tx.$executeRaw`INSERT INTO "CardAssignee" ("cardId", "userId") SELECT * FROM unnest(${chunk.map((x) => x[0])}::int[], ${chunk.map((x) => x[1])}::int[])`);
    const values = cards.flatMap(({ card }, i) => Object.entries(card.fieldValues).map(([k, v]) => [cardIds[i]!, fieldByKey.get(k)!, JSON.stringify(v)] as const));
    await inChunks(values, CHUNK_ROWS, (chunk) => tx.$executeRaw`INSERT INTO "CardFieldValue" ("cardId", "fieldId", value)
      SELECT u.card, u.field, u.value::jsonb FROM unnest(${chunk.map((x) => x[0])}::int[], ${chunk.map((x) => x[1])}::int[], ${chunk.map((x) => x[2])}::text[]) AS u(card, field, value)`);

    const checklists = cards.flatMap(({ card }, i) => card.checklists.map((c, position) => ({ cardId: cardIds[i]!, position, checklist: c })));
    const checklistIds = await newIds(tx, 'Checklist', checklists.length);
    await inChunks(checklists, CHUNK_ROWS, (chunk, at) => tx.$executeRaw`INSERT INTO "Checklist" (id, "cardId", name, position)
      SELECT * FROM unnest(${checklistIds.slice(at, at + chunk.length)}::int[], ${chunk.map((c) => c.cardId)}::int[], ${chunk.map((c) => c.checklist.name)}::text[], ${chunk.map((c) => c.position)}::int[])`);
    const items = checklists.flatMap((c, i) => c.checklist.items.map((item, position) => ({ checklistId: checklistIds[i]!, position, item })));
    await inChunks(items, CHUNK_ROWS, (chunk) => tx.$executeRaw`INSERT INTO "ChecklistItem" ("checklistId", name, checked, position)
      SELECT * FROM unnest(${chunk.map((x) => x.checklistId)}::int[], ${chunk.map((x) => x.item.name)}::text[], ${chunk.map((x) => x.item.checked)}::boolean[], ${chunk.map((x) => x.position)}::int[])`);

    const comments = cards.flatMap(({ card }, i) =>
      card.comments.map((c) => {
        const match = c.author === null ? undefined : matches.get(c.author);
        // The matched person is the author, on the file's date: the importer chose the match (among people they share a
        // board with) in the preview. Someone not matched is an author without an account, known by name alone
        // (authorId null, the name as the file has it: "… (from Trello)"), the shape of a ticket requester's comments too.
        return match
          ? { cardId: cardIds[i]!, authorId: match.userId as number | null, authorName: match.name, text: c.text, at: c.createdAt }
          : { cardId: cardIds[i]!, authorId: null, authorName: c.authorName, text: c.text, at: c.createdAt };
      }),
    );
    // importedAt: now, whatever the file's date; the comment is marked as imported wherever it is shown.
    await inChunks(comments, CHUNK_ROWS, (chunk) => tx.$executeRaw`INSERT INTO "Comment" ("cardId", "authorId", "authorName", text, "createdAt", "updatedAt", "importedAt")
      SELECT u.card, u.author, u.name, u.text, u.at, u.at, now()
      FROM unnest(${chunk.map((c) => c.cardId)}::int[], ${chunk.map((c) => c.authorId)}::int[], ${chunk.map((c) => c.authorName)}::text[],
        ${chunk.map((c) => c.text)}::text[], ${chunk.map((c) => c.at)}::timestamptz[]) AS u(card, author, name, text, at)`);

    // Links only: a file's bytes are never in a board file (read-board-file.ts reports those).
    const links = cards.flatMap(({ card }, i) => card.attachments.flatMap((a) => (a.url ? [{ cardId: cardIds[i]!, ...a, url: a.url }] : [])));
    await inChunks(links, CHUNK_ROWS, (chunk) => tx.$executeRaw`INSERT INTO "Attachment" ("cardId", filename, "mimeType", size, url)
      SELECT * FROM unnest(${chunk.map((a) => a.cardId)}::int[], ${chunk.map((a) => a.filename)}::text[], ${chunk.map((a) => a.mimeType)}::text[],
        ${chunk.map((a) => a.size)}::int[], ${chunk.map((a) => a.url)}::text[])`);

    await tx.$executeRaw`SELECT set_config('tb.bulk_search', 'off', true)`;
    await inChunks(cardIds, SEARCH_CHUNK_ROWS, (ids) =>
      tx.$executeRaw`SELECT card_search_refresh(${ids}::int[])`);

    await record({ boardId: board.id, type: 'board.created', data: { boardId: board.id, board: presentBoard(board, 'admin') } });
    return board;
  });
}
