import { z } from 'zod';
import { changeBoard } from '../../activity/change-board.js';
import { badRequest } from '../../../platform/errors.js';
import { requireRole } from '../../access.js';
import type { BoardContext } from '../../context.js';
import { authorize } from '../../policy.js';
import { cardEnds, listEnd } from '../../target-position.js';
import { lockBoards } from '../../lock-boards.js';
import { loadCardSummaries } from '../../json/card-json.js';
import { presentLabel, presentList } from '../../presenters.js';
import type { CardRow } from '../../rows.js';
import { ImportReport, unmappedEntry } from '../import-report.js';
import { type CsvCard, type CsvField, csvProblem, readCsvCards } from './read-csv-cards.js';

export const csvImportResult = z
  .object({
    dryRun: z.boolean(),
    columns: z.record(z.string(), z.enum(['title', 'list', 'description', 'labels', 'due', 'members', 'ignore'])).describe('Each header, and the card field it fills.'),
    cards: z.number().int().describe('Cards created (or, with dryRun, that would be).'),
    newLists: z.array(z.string()).describe('Lists the CSV names that the board does not have: made at the end.'),
    newLabels: z.array(z.string()).describe('Labels the CSV names that the board does not have: made without a colour.'),
    preview: z
      .array(z.object({ row: z.number().int(), title: z.string(), list: z.string(), labels: z.array(z.string()), dueAt: z.string().nullable(), members: z.array(z.string()) }))
      .describe('The first 20 cards as they will be made.'),
    problems: z.array(csvProblem).describe('Rows that cannot be cards; an import with any is refused (400).'),
    unmapped: z.array(unmappedEntry).describe('What the cards will not have (people who are not members of the board).'),
  })
  .meta({ id: 'CsvImportResult' });
export type CsvImportResult = z.infer<typeof csvImportResult>;

const key = (name: string) => name.trim().toLowerCase();

/**
 * Cards from a CSV into an existing board (admins and members: card.write), appended to the lists
 * its List column names (new lists at the end of the board; no List column: the first list),
 * with labels by name (new ones without a colour), due dates and assignees (board members, by
 * e-mail or name). With dryRun, only what it would do. All rows or none; one `card.created` per card.
 */
export async function importCsvCards(ctx: BoardContext & { boardId: number; text: string; columns?: Record<string, CsvField> | undefined; dryRun: boolean }): Promise<CsvImportResult> {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'card.write', role);
  const read = readCsvCards(ctx.text, ctx.columns);
  const board = await ctx.db.board.findUniqueOrThrow({
    where: { id: ctx.boardId },
    include: { lists: { where: { archived: false }, orderBy: { position: 'asc' } }, labels: true, members: { include: { user: { select: { name: true, email: true } } } } },
  });
  const lists = new Map(board.lists.map((l) => [key(l.name), l]));
  const fallback = board.lists[0]?.name ?? 'Imported';
  const listOf = (c: CsvCard) => c.list ?? fallback;
  const newLists = [...new Map(read.cards.map((c) => [key(listOf(c)), listOf(c)])).entries()].filter(([k]) => !lists.has(k)).map(([, name]) => name);
  const labels = new Map(board.labels.map((l) => [key(l.name), l]));
  const newLabels = [...new Map(read.cards.flatMap((c) => c.labels).map((l) => [key(l), l])).entries()].filter(([k]) => !labels.has(k)).map(([, name]) => name);
  const people = new Map<string, number>();
  for (const m of board.members) {
    people.set(key(m.user.email), m.userId);
    people.set(key(m.user.name), m.userId);
  }
  const report = new ImportReport();
  for (const c of read.cards) for (const m of c.members) if (!people.has(key(m))) report.add('people who are not members of the board (not assigned)', `row ${c.row}: ${m}`);
  const result: CsvImportResult = {
    dryRun: ctx.dryRun,
    columns: read.columns,
    cards: read.cards.length,
    newLists,
    newLabels,
    preview: read.cards.slice(0, 20).map((c) => ({ row: c.row, title: c.title, list: listOf(c), labels: c.labels, dueAt: c.dueAt?.toISOString() ?? null, members: c.members.filter((m) => people.has(key(m))) })),
    problems: read.problems,
    unmapped: report.list(),
  };
  if (ctx.dryRun) return result;
  if (read.problems.length) throw badRequest(`csv: row ${read.problems[0]!.row}: ${read.problems[0]!.message} (${read.problems.length} rows cannot be cards; preview with dryRun=true)`);
  if (read.cards.length === 0) throw badRequest('csv: no rows below the header');
  await writeCsvCards(ctx, read.cards, { listOf, newLists, newLabels, people });
  return result;
}

/** The cards in one transaction: the board and all its lists locked (lock-boards.ts), new lists and labels, then the cards at the ends of their lists. */
async function writeCsvCards(
  ctx: BoardContext & { boardId: number },
  cards: CsvCard[],
  plan: { listOf: (c: CsvCard) => string; newLists: string[]; newLabels: string[]; people: Map<string, number> },
) {
  const { boardId } = ctx;
  await changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [boardId]);
    const nextList = await listEnd(tx, boardId);
    for (const name of plan.newLists) {
      const list = await tx.list.create({ data: { boardId, name, position: nextList() } });
      await record({ boardId, type: 'list.created', data: { listId: list.id, list: presentList(list) } });
    }
    for (const name of plan.newLabels) {
      const label = await tx.label.create({ data: { boardId, name, color: null } });
      await record({ boardId, type: 'label.created', data: { labelId: label.id, label: presentLabel(label) } });
    }
    const lists = new Map((await tx.list.findMany({ where: { boardId, archived: false } })).map((l) => [key(l.name), l.id]));
    const labels = new Map((await tx.label.findMany({ where: { boardId } })).map((l) => [key(l.name), l.id]));
    const nextCard = await cardEnds(tx, [...new Set(lists.values())]);
    const rows = cards.map((c) => {
      const listId = lists.get(key(plan.listOf(c)))!;
      return { c, listId, position: nextCard(listId) };
    });
    const inserted = await tx.$queryRaw<CardRow[]>`
      INSERT INTO "Card" ("boardId", "listId", title, description, position, "dueAt", "updatedAt")
      SELECT ${boardId}, u.list, u.title, u.description, u.position, u.due, now()
      FROM unnest(${rows.map((r) => r.listId)}::int[], ${rows.map((r) => r.c.title)}::text[], ${rows.map((r) => r.c.description)}::text[],
        ${rows.map((r) => r.position)}::int[], ${rows.map((r) => r.c.dueAt?.toISOString() ?? null)}::timestamptz[]) WITH ORDINALITY AS u(list, title, description, position, due, n)
      ORDER BY u.n
      RETURNING id, "boardId", "listId", title, description, position, archived, "dueAt", "coverAttachmentId", version, "createdAt", "updatedAt"`;
    // RETURNING follows the rows as inserted, in ORDER BY u.n; matched by list and position to be sure.
    const byPlace = new Map(inserted.map((card) => [`${card.listId}:${card.position}`, card]));
    const placed = rows.map(({ c, listId, position }) => ({
      card: byPlace.get(`${listId}:${position}`)!,
      listId,
      labelIds: [...new Set(c.labels.map((l) => labels.get(key(l))!))].sort((a, b) => a - b),
      memberIds: [...new Set(c.members.map((m) => plan.people.get(key(m))).filter((id): id is number => id !== undefined))].sort((a, b) => a - b),
    }));
    // One statement each for all the cards' labels and assignees (a statement per card made a 5,000-row import take minutes).
    const cardLabels = placed.flatMap((p) => p.labelIds.map((labelId) => ({ cardId: p.card.id, labelId })));
    const cardAssignees = placed.flatMap((p) => p.memberIds.map((userId) => ({ cardId: p.card.id, userId })));
    if (cardLabels.length) await tx.cardLabel.createMany({ data: cardLabels });
    if (cardAssignees.length) await tx.cardAssignee.createMany({ data: cardAssignees });
    // Each card's summary as every other write builds it (json/card-json.ts), for all of them in one statement.
    const summaries = await loadCardSummaries(tx, placed.map((p) => p.card.id));
    for (const summary of summaries) {
      await record({ boardId, type: 'card.created', data: { cardId: summary.id, listId: summary.listId, card: summary } });
    }
  });
}
