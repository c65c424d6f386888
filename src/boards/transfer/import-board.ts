import type { BoardContext } from '../context.js';
import { authorizeCreateBoard } from '../policy.js';
import { presentBoard } from '../presenters.js';
import type { BoardFile } from './board-file.js';
import { ImportReport } from './import-report.js';
import type { ImportResult } from './import-result.js';
import { type ChosenMatches, type MemberMatch, matchMembers } from './match-members.js';
import { readBoardFileOffLoop } from './read-off-loop.js';
import { writeBoardFile } from './write-board-file.js';

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
export async function importBoard(ctx: BoardContext & { bytes: Buffer | string; matchMembers: boolean; members?: ChosenMatches | undefined; dryRun: boolean }): Promise<ImportResult> {
  authorizeCreateBoard(ctx.actor);
  const read = await readBoardFileOffLoop(ctx.bytes);
  // The importer is always themselves (by address); anyone else when asked, or as chosen.
  const { matches, candidates } = await matchMembers({ db: ctx.db, actor: ctx.actor, members: read.file.members, auto: ctx.matchMembers, chosen: ctx.members });
  const report = new ImportReport();
  for (const m of read.file.members) {
    if (matches.has(m.key)) continue;
    const what = ctx.matchMembers || ctx.members ? 'people not matched to users here (named in the card text; their comments marked with their name)' : 'people (not matched to users: matchMembers was off; named in the card text; their comments marked with their name)';
    report.add(what, m.username ? `${m.name} (@${m.username})` : m.name);
  }
  const unmapped = [...read.unmapped, ...report.list()];
  const summary = summarize(read.file, matches);
  const members = presentMembers(read.file, matches);
  if (ctx.dryRun) return { board: null, source: read.source, summary, unmapped, members, candidates };
  const board = await writeBoardFile({ ...ctx, file: read.file, matches });
  return { board: presentBoard(board, 'admin'), source: read.source, summary, unmapped, members, candidates };
}

/** The file's people with how many cards and comments are theirs, and their matches. */
function presentMembers(file: BoardFile, matches: Map<string, MemberMatch>): ImportResult['members'] {
  const cards = new Map<string, number>();
  const comments = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const list of file.lists) {
    for (const card of list.cards) {
      for (const key of new Set(card.members)) add(cards, key);
      for (const c of card.comments) if (c.author !== null) add(comments, c.author);
    }
  }
  return file.members.map((m) => ({
    key: m.key,
    name: m.name,
    username: m.username ?? null,
    role: m.role,
    cards: cards.get(m.key) ?? 0,
    comments: comments.get(m.key) ?? 0,
    match: matches.get(m.key) ?? null,
  }));
}
