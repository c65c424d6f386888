import { z } from 'zod';
import type { BoardContext } from '../context.js';
import { authorizeCreateBoard } from '../policy.js';
import { presentBoard } from '../presenters.js';
import * as s from '../schemas.js';
import type { BoardFile } from './board-file.js';
import { ImportReport, unmappedEntry } from './import-report.js';
import { type MemberMatch, matchMembers } from './match-members.js';
import { readBoardFileOffLoop } from './read-off-loop.js';
import { writeBoardFile } from './write-board-file.js';

export const importSummary = z
  .object({
    lists: z.number().int().describe('Lists, archived ones included.'),
    archivedLists: z.number().int(),
    cards: z.number().int().describe('Cards, archived ones included.'),
    archivedCards: z.number().int(),
    labels: z.number().int(),
    customFields: z.number().int(),
    checklists: z.number().int(),
    checklistItems: z.number().int(),
    comments: z.number().int(),
    members: z.number().int().describe('People the file names (members and comment authors).'),
    matchedMembers: z.number().int().describe('Of those, matched to users here (only with matchMembers=true).'),
  })
  .meta({ id: 'ImportSummary', description: 'What the import creates (or would create, with dryRun).' });

export const importResult = z
  .object({
    board: s.board.nullable().describe('The new board; null with dryRun=true (nothing was created).'),
    source: z.enum(['trello', 'taskboard']).describe('The file\'s format: a Trello board export, or our own board file.'),
    summary: importSummary,
    unmapped: z.array(unmappedEntry).describe('What could not be carried over, by kind.'),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof importResult>;

function summarize(file: BoardFile, matches: Map<string, MemberMatch>): ImportResult['summary'] {
  const cards = file.lists.flatMap((l) => l.cards);
  const checklists = cards.flatMap((c) => c.checklists);
  return {
    lists: file.lists.length,
    archivedLists: file.lists.filter((l) => l.archived).length,
    cards: cards.length,
    archivedCards: cards.filter((c) => c.archived).length,
    labels: file.labels.length,
    customFields: file.customFields.length,
    checklists: checklists.length,
    checklistItems: checklists.reduce((n, c) => n + c.items.length, 0),
    comments: cards.reduce((n, c) => n + c.comments.length, 0),
    members: file.members.length,
    matchedMembers: matches.size,
  };
}

/**
 * A new board from a Trello board export or our own board file (the importer becomes its admin,
 * as POST /boards makes them: a key limited to chosen boards may not). With `dryRun`, only what it
 * would create and what it would leave out. Nothing is created unless all of it is.
 */
export async function importBoard(ctx: BoardContext & { bytes: Buffer | string; matchMembers: boolean; dryRun: boolean }): Promise<ImportResult> {
  authorizeCreateBoard(ctx.actor);
  const read = await readBoardFileOffLoop(ctx.bytes);
  // The importer is always themselves (by address); anyone else only when asked.
  const self = read.file.members.filter((m) => m.email?.toLowerCase() === ctx.actor.email.toLowerCase());
  const matches = await matchMembers({ db: ctx.db, actor: ctx.actor, members: ctx.matchMembers ? read.file.members : self });
  const report = new ImportReport();
  for (const m of read.file.members) {
    if (matches.has(m.key)) continue;
    const what = ctx.matchMembers ? 'people not matched to users here (named in the card or comment text)' : 'people (not matched to users: matchMembers was off; named in the card or comment text)';
    report.add(what, m.username ? `${m.name} (@${m.username})` : m.name);
  }
  const unmapped = [...read.unmapped, ...report.list()];
  const summary = summarize(read.file, matches);
  if (ctx.dryRun) return { board: null, source: read.source, summary, unmapped };
  const board = await writeBoardFile({ ...ctx, file: read.file, matches });
  return { board: presentBoard(board, 'admin'), source: read.source, summary, unmapped };
}
