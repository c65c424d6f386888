import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, expectError } from '../../board-factories.js';
import { makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { generatedExport, readFixture } from './trello-fixtures.js';

/** Malformed, contradictory and hostile files: a 4xx naming what is wrong, and nothing created. */
const t = useTestApp(BOARD_TEST_ENV);

async function nothingLeft(userId: number) {
  expect(await t.db.prisma.boardMember.count({ where: { userId } })).toBe(0);
  expect(await t.db.prisma.activity.count({ where: { actorUserId: userId } })).toBe(0);
}

async function send(payload: string, contentType = 'application/json') {
  const user = await makeUser(t.db);
  const key = await makeKey(t.db, user.id);
  const res = await t.app.inject({ method: 'POST', url: '/api/boards/import', headers: { ...key.auth, 'content-type': contentType }, payload });
  return { res, user };
}

const gocd = () => readFixture('gocd-test-drive').json;

const cases: [string, () => string, RegExp][] = [
  ['not JSON', () => '{"lists": [', /^file: not JSON/],
  ['JSON that is not an object', () => '[1, 2, 3]', /^file: must be a JSON object/],
  ['neither format', () => JSON.stringify({ hello: 'world' }), /neither a Trello board export/],
  ['the wrong shape (cards not an array)', () => JSON.stringify({ ...gocd(), cards: { a: 1 } }), /^file: cards: must be an array/],
  ['a card without a name', () => { const j = gocd(); delete j.cards[5].name; return JSON.stringify(j); }, /^file: cards\[5\]\.name: /],
  ['a card in a list the export does not have', () => { const j = gocd(); j.cards[3].idList = 'ffffffffffffffffffffffff'; return JSON.stringify(j); }, /^file: cards\[3\]\.idList: list "ffffffffffffffffffffffff" is not among the export's lists/],
  ['a duplicated card id', () => { const j = gocd(); j.cards[7].id = j.cards[2].id; return JSON.stringify(j); }, /^file: cards\[7\]\.id: ".*" appears twice in cards/],
  ['a duplicated list id', () => { const j = gocd(); j.lists[1].id = j.lists[0].id; return JSON.stringify(j); }, /^file: lists\[1\]\.id: .* appears twice/],
  ['a checklist on a card the export does not have', () => { const j = gocd(); j.checklists[0].idCard = 'nope'; return JSON.stringify(j); }, /^file: checklists\[0\]\.idCard: /],
  ['a label the export does not have', () => { const j = gocd(); j.cards[0].idLabels = ['nope']; return JSON.stringify(j); }, /^file: cards\[0\]\.idLabels: label "nope"/],
  ['deep nesting', () => { const j = gocd(); j.cards[0].desc = '@@'; return JSON.stringify(j).replace('"@@"', `${'['.repeat(50_000)}${']'.repeat(50_000)}`); }, /^file: nested deeper than 32 levels/],
  ['deep nesting anywhere, even in keys Trello does not have', () => `{"lists":[],"cards":[],"x":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`, /^file: nested deeper than 32 levels/],
  ['a check item state Trello does not have', () => { const j = gocd(); j.checklists[0].checkItems[0].state = 'maybe'; return JSON.stringify(j); }, /^file: checklists\[0\]\.checkItems\[0\]\.state: must be complete or incomplete/],
  ['our own file referring to a label it does not have', () => JSON.stringify({
    format: 'taskboard-board', version: 1, board: { name: 'B', description: '', archived: false }, labels: [], customFields: [], members: [],
    lists: [{ name: 'L', archived: false, position: 0, cards: [{ title: 'C', description: '', archived: false, position: 0, dueAt: null, labels: ['x'], members: [], fieldValues: {}, checklists: [], comments: [], attachments: [] }] }],
  }), /^file: lists\[0\]\.cards\[0\]\.labels: "x" is not a key of labels/],
  ['our own file with a value its field refuses', () => JSON.stringify({
    format: 'taskboard-board', version: 1, board: { name: 'B', description: '', archived: false }, labels: [], members: [],
    customFields: [{ key: 'f', name: 'N', type: 'number', options: [] }],
    lists: [{ name: 'L', archived: false, position: 0, cards: [{ title: 'C', description: '', archived: false, position: 0, dueAt: null, labels: [], members: [], fieldValues: { f: 'ten' }, checklists: [], comments: [], attachments: [] }] }],
  }), /^file: lists\[0\]\.cards\[0\]\.fieldValues\.f: must be a finite number/],
  ['our own file of another version', () => JSON.stringify({ format: 'taskboard-board', version: 2 }), /^file: version: must be 1/],
];

describe('POST /api/boards/import refuses, and creates nothing', () => {
  for (const [what, build, message] of cases) {
    it(`refuses ${what} with a 400 naming it`, async () => {
      const { res, user } = await send(build());
      expectError(res, 400, message);
      await nothingLeft(user.id);
    });
  }

  it('refuses a file over 20 MB with 413 (JSON body and multipart alike)', async () => {
    const big = JSON.stringify({ ...generatedExport({ cards: 1, comments: 0 }), padding: 'x'.repeat(20 * 1024 * 1024) });
    const { res, user } = await send(big);
    expectError(res, 413);
    await nothingLeft(user.id);
    const boundary = '----big';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.json"\r\nContent-Type: application/json\r\n\r\n${big}\r\n--${boundary}--\r\n`;
    const second = await send(multipart, `multipart/form-data; boundary=${boundary}`);
    expectError(second.res, 413);
    await nothingLeft(second.user.id);
  }, 120_000);

  it('refuses a body that is neither JSON nor multipart (415), and an empty one (400)', async () => {
    expectError((await send('lists,cards', 'text/csv')).res, 415);
    expectError((await send('', 'application/json')).res, 400, /^(file|body): /);
  });
});
