import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The folder a local clone was cloned from (CI runs on a fresh clone of the working repository), else null. */
function clonedFrom(): string | null {
  try {
    const url = execFileSync('git', ['-C', ROOT, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return path.isAbsolute(url) ? url : null;
  } catch {
    return null;
  }
}

/**
 * The real Trello exports in ../shared/fixtures/trello/ (sources and licences in its SOURCES.md),
 * read from there at test time: they are not copied into this repository. Looked for where
 * TRELLO_FIXTURES names, beside this repository, beside the one a fresh clone was made from, or in
 * this team's machines' /work/shared; a test
 * that needs them fails (never skips) when none holds them.
 */
export const TRELLO_FIXTURES = (() => {
  const origin = clonedFrom();
  const candidates = [process.env.TRELLO_FIXTURES, path.join(ROOT, '../shared/fixtures/trello'), origin && path.join(origin, '../shared/fixtures/trello'), '/work/shared/fixtures/trello'].filter((c): c is string => !!c);
  return candidates.find((c) => existsSync(path.join(c, 'SOURCES.md'))) ?? candidates[1]!;
})();
export const FIXTURE_NAMES = ['trello2planka-simple-project-board', 'trello2md-productivity-workflow', 'gocd-test-drive'] as const;

export function readFixture(name: (typeof FIXTURE_NAMES)[number]): { text: string; json: any } {
  const text = readFileSync(path.join(TRELLO_FIXTURES, `${name}.json`), 'utf8');
  return { text, json: JSON.parse(text) };
}

const HEX = () => Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
let counter = 0;
/** A Trello-shaped id (24 hex digits), unique within the run. */
export const trelloId = () => `${HEX()}${HEX()}${(counter++).toString(16).padStart(8, '0')}`;

/**
 * A board export in the shape Trello's REST reference documents (board with lists, cards,
 * labels, checklists, actions, members, customFields), with `cards` cards spread over five lists
 * and `comments` commentCard actions; every card has a label, a member, a checklist, a due date
 * and values of the five custom field types.
 */
export function generatedExport({ cards, comments }: { cards: number; comments: number }) {
  const boardId = trelloId();
  const members = [
    { id: trelloId(), fullName: 'Ada Lovelace', username: 'ada', email: null },
    { id: trelloId(), fullName: 'Grace Hopper', username: 'grace' },
  ];
  const lists = Array.from({ length: 5 }, (_, i) => ({ id: trelloId(), name: `List ${i}`, closed: i === 4, pos: (5 - i) * 1024.5, idBoard: boardId }));
  const labels = [
    { id: trelloId(), name: 'Bug', color: 'red_dark', idBoard: boardId },
    { id: trelloId(), name: '', color: 'sky_light', idBoard: boardId },
  ];
  const option = (text: string, pos: number) => ({ id: trelloId(), value: { text }, color: 'none', pos });
  const options = [option('Low', 2), option('High', 1)];
  const customFields = [
    { id: trelloId(), idModel: boardId, modelType: 'board', name: 'Notes', type: 'text', pos: 1 },
    { id: trelloId(), idModel: boardId, modelType: 'board', name: 'Estimate', type: 'number', pos: 2 },
    { id: trelloId(), idModel: boardId, modelType: 'board', name: 'Review on', type: 'date', pos: 3 },
    { id: trelloId(), idModel: boardId, modelType: 'board', name: 'Approved', type: 'checkbox', pos: 4 },
    { id: trelloId(), idModel: boardId, modelType: 'board', name: 'Priority', type: 'list', pos: 5, options },
  ];
  const checklists: any[] = [];
  const trelloCards = Array.from({ length: cards }, (_, i) => {
    const id = trelloId();
    const checklistId = trelloId();
    checklists.push({
      id: checklistId, idBoard: boardId, idCard: id, name: `Steps ${i}`, pos: 16384,
      checkItems: [
        { id: trelloId(), idChecklist: checklistId, name: 'second', pos: 200, state: 'incomplete' },
        { id: trelloId(), idChecklist: checklistId, name: 'first', pos: 100, state: 'complete' },
      ],
    });
    return {
      id, idBoard: boardId, idList: lists[i % 5]!.id, name: `Card ${i}`, desc: `Description of **card ${i}**`, closed: i % 10 === 9,
      pos: cards - i, idLabels: [labels[i % 2]!.id], idMembers: [members[i % 2]!.id], idChecklists: [checklistId],
      due: `2030-01-${String((i % 28) + 1).padStart(2, '0')}T12:00:00.000Z`, dueComplete: i % 3 === 0, start: i % 4 === 0 ? '2029-12-01T00:00:00.000Z' : null,
      cover: { color: i % 7 === 0 ? 'green' : null }, idMembersVoted: [], badges: { votes: 0 },
      attachments: i % 50 === 0 ? [{ id: trelloId(), name: 'Spec', url: 'https://example.com/spec?a=1', isUpload: false }, { id: trelloId(), name: 'evil', url: 'javascript:alert(1)', isUpload: false }] : [],
      customFieldItems: [
        { id: trelloId(), idCustomField: customFields[0]!.id, idModel: id, modelType: 'card', value: { text: `note ${i}` } },
        { id: trelloId(), idCustomField: customFields[1]!.id, idModel: id, modelType: 'card', value: { number: `${i}.5` } },
        { id: trelloId(), idCustomField: customFields[2]!.id, idModel: id, modelType: 'card', value: { date: '2031-02-03T04:05:06.000Z' } },
        { id: trelloId(), idCustomField: customFields[3]!.id, idModel: id, modelType: 'card', value: { checked: i % 2 === 0 ? 'true' : 'false' } },
        { id: trelloId(), idCustomField: customFields[4]!.id, idModel: id, modelType: 'card', idValue: options[i % 2]!.id },
      ],
    };
  });
  const actions = Array.from({ length: comments }, (_, i) => {
    const card = trelloCards[i % cards]!;
    const author = members[i % 2]!;
    return {
      id: trelloId(), idMemberCreator: author.id, type: 'commentCard', date: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      data: { text: `Comment ${i}`, card: { id: card.id, name: card.name }, board: { id: boardId } },
      memberCreator: { id: author.id, fullName: author.fullName, username: author.username },
    };
  });
  return {
    id: boardId, name: 'Generated board', desc: 'Made by the test', closed: false,
    lists, cards: trelloCards, labels, checklists, actions, members, customFields,
    memberships: [{ idMember: members[0]!.id, memberType: 'admin' }, { idMember: members[1]!.id, memberType: 'normal' }],
    pluginData: [], powerUps: [],
  };
}
