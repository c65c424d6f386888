import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV, client, expectError, expectStatus, makeCard, makeChecklist, makeComment, makeField, makeItem, makeLabel, makeList, makeTeam, setField,
} from '../../board-factories.js';
import { makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { readFixture } from './trello-fixtures.js';

/** GET /api/boards/{id}/export (our JSON and CSV), and the JSON back through POST /api/boards/import into an identical board. */
const t = useTestApp(BOARD_TEST_ENV);

/** A board file with its keys (which are ids) replaced by what they name, and the export's date dropped: equal files describe identical boards. */
function withoutIds(file: any) {
  const label = new Map(file.labels.map((l: any) => [l.key, `${l.name}/${l.color}`]));
  const field = new Map(file.customFields.map((f: any) => [f.key, f.name]));
  const member = new Map(file.members.map((m: any) => [m.key, m.email ?? m.name]));
  return {
    ...file,
    exportedAt: undefined,
    labels: file.labels.map(({ key: _key, ...l }: any) => l),
    customFields: file.customFields.map(({ key: _key, ...f }: any) => f),
    members: file.members.map(({ key: _key, ...m }: any) => m).sort((a: any, b: any) => String(a.email ?? a.name).localeCompare(String(b.email ?? b.name))),
    lists: file.lists.map((l: any) => ({
      ...l,
      cards: l.cards.map((c: any) => ({
        ...c,
        labels: c.labels.map((k: string) => label.get(k)).sort(),
        members: c.members.map((k: string) => member.get(k)).sort(),
        fieldValues: Object.fromEntries(Object.entries(c.fieldValues).map(([k, v]) => [field.get(k), v])),
        comments: c.comments.map((m: any) => ({ ...m, author: m.author === null ? null : member.get(m.author) })),
      })),
    })),
  };
}

async function exportOf(api: ReturnType<typeof client>, boardId: number) {
  const res = await api.get(`/api/boards/${boardId}/export`);
  expectStatus(res, 200);
  expect(res.headers['content-disposition']).toBe(`attachment; filename="board-${boardId}.json"`);
  return res.json();
}

describe('GET /api/boards/{id}/export → POST /api/boards/import', () => {
  it('round-trips a board made by hand into an identical one (ids aside): lists, cards, archived ones, labels, fields, checklists, comments, assignees', async () => {
    const { as, board, admin, member, observer, list } = await makeTeam(t);
    const api = as.admin;
    const doing = await makeList(api, board.id, 'Doing');
    const old = await makeList(api, board.id, 'Old');
    const red = await makeLabel(api, board.id, 'Urgent', 'red');
    await makeLabel(api, board.id, 'Plain', null);
    expectStatus(await api.post(`/api/boards/${board.id}/labels`, { name: 'Deep', color: 'blue', shade: 'dark' }), 201);
    const points = await makeField(api, board.id, 'number', undefined, 'Points');
    const stage = await makeField(api, board.id, 'list', ['Alpha', 'Beta'], 'Stage');
    const first = await makeCard(api, list.id, 'First', 'Some **Markdown**');
    const second = await makeCard(api, list.id, 'Second');
    const gone = await makeCard(api, doing.id, 'Gone');
    await makeCard(api, old.id, 'In an old list');
    expectStatus(await api.patch(`/api/cards/${first.id}`, { dueAt: '2030-05-06T07:08:09.000Z' }), 200);
    expectStatus(await api.put(`/api/cards/${first.id}/labels/${red.id}`), 200);
    expectStatus(await api.put(`/api/cards/${first.id}/members/${member.id}`), 200);
    await setField(api, first.id, points.id, 3.5);
    await setField(api, second.id, stage.id, 'Beta');
    const checklist = await makeChecklist(api, first.id, 'Steps');
    await makeItem(api, checklist.id, 'one', true);
    await makeItem(api, checklist.id, 'two');
    await makeComment(api, first.id, 'From the admin');
    await makeComment(as.member, first.id, 'From the member');
    expectStatus(await api.patch(`/api/cards/${gone.id}`, { archived: true }), 200);
    expectStatus(await api.patch(`/api/lists/${old.id}`, { archived: true }), 200);
    expectStatus(await api.patch(`/api/boards/${board.id}`, { color: 'sunset' }), 200);

    const exported = await exportOf(api, board.id);
    expect(exported.lists.map((l: any) => [l.name, l.archived])).toEqual([['Todo', false], ['Doing', false], ['Old', true]]);
    expect(exported.board.color).toBe('sunset');
    expect(exported.labels.map((l: any) => [l.name, l.color, l.shade])).toEqual([['Urgent', 'red', null], ['Plain', null, null], ['Deep', 'blue', 'dark']]);
    const res = await api.post('/api/boards/import?matchMembers=true', exported);
    expectStatus(res, 201);
    expect(res.json()).toMatchObject({ source: 'taskboard', unmapped: [] });
    const copy = res.json().board.id;
    // Identical: each comment by the same person, with its text and date as they were (issue #46 item 9: no "(imported)" line).
    expect(withoutIds(await exportOf(api, copy))).toEqual(withoutIds(exported));
    // The people are the same users: the member is a member again, assigned, and the author of their comment.
    const members = (await api.get(`/api/boards/${copy}/members`)).json().members;
    expect(members.map((m: any) => [m.userId, m.role]).sort()).toEqual([[admin.id, 'admin'], [member.id, 'member'], [observer.id, 'observer']].sort());
  });

  it('round-trips a real Trello export imported first, and again without matching (people then named in the text)', async () => {
    const user = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, user.id)).auth);
    const imported = await api.post('/api/boards/import', readFixture('gocd-test-drive').json);
    expectStatus(imported, 201);
    const exported = await exportOf(api, imported.json().board.id);
    const again = await api.post('/api/boards/import', exported);
    expectStatus(again, 201);
    // The importer is always matched to themselves, so their own (imported) comments keep their text.
    expect(withoutIds(await exportOf(api, again.json().board.id))).toEqual(withoutIds(exported));
  });

  it('is refused to people who cannot read the board (404), and allowed to observers', async () => {
    const { as, board } = await makeTeam(t);
    expectError(await as.stranger.get(`/api/boards/${board.id}/export`), 404);
    expectStatus(await as.observer.get(`/api/boards/${board.id}/export`), 200);
    expectError(await as.admin.get(`/api/boards/${board.id}/export?format=xml`), 400, /format: must be json or csv/);
  });
});

describe('GET /api/boards/{id}/export?format=csv', () => {
  it('is one row per card with list, labels, due date, members, checklist progress and one column per field; formulas are defused', async () => {
    const { as, board, member, list } = await makeTeam(t);
    const api = as.admin;
    const red = await makeLabel(api, board.id, 'Urgent', 'red');
    const points = await makeField(api, board.id, 'number', undefined, 'Points');
    const card = await makeCard(api, list.id, '=HYPERLINK("http://evil")', 'line one\nline "two", three');
    await makeCard(api, list.id, 'Plain');
    expectStatus(await api.put(`/api/cards/${card.id}/labels/${red.id}`), 200);
    expectStatus(await api.put(`/api/cards/${card.id}/members/${member.id}`), 200);
    expectStatus(await api.patch(`/api/cards/${card.id}`, { dueAt: '2030-01-02' }), 200);
    await setField(api, card.id, points.id, 8);
    const checklist = await makeChecklist(api, card.id);
    await makeItem(api, checklist.id, 'a', true);
    await makeItem(api, checklist.id, 'b');
    const res = await api.get(`/api/boards/${board.id}/export?format=csv`);
    expectStatus(res, 200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="board-${board.id}.csv"`);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('List,Title,Description,Labels,Due,Members,Archived,Checklist items done,Checklist items,Comments,Points');
    expect(res.body).toContain(`Todo,"'=HYPERLINK(""http://evil"")","line one\nline ""two"", three",Urgent,2030-01-02T00:00:00.000Z,`);
    expect(res.body).toContain(',false,1,2,0,8\r\n');
    expect(lines.at(-2)).toBe('Todo,Plain,,,,,false,0,0,0,');
    expect(lines.at(-1)).toBe('');
  });
});

describe('GET /api/boards/{id}/export?format=csv: formulas behind spaces, line breaks and full-width signs (issue #44, item 11)', () => {
  it('defuses =, +, -, @ after leading spaces or line breaks, and the full-width ＝ ＋ － ＠, in every cell', async () => {
    const { as, board, list } = await makeTeam(t);
    const api = as.admin;
    const cases = [
      ['Spaces', '   =HYPERLINK("http://evil")'],
      ['Newline', '\n=cmd|\' /C calc\'!A0'],
      ['CRLF and tab', '\r\n\t@SUM(A1)'],
      ['Ideographic space', '\u3000+1+1'],
      ['No-break space', '\u00a0-2+3'],
    ];
    for (const [title, description] of cases) await makeCard(api, list.id, title!, description);
    for (const title of ['＝HYPERLINK("http://evil")', '＋1＋1', '－2＋3', '＠SUM(A1)']) await makeCard(api, list.id, title);
    await makeCard(api, list.id, 'A = B, not a formula', 'x = 1');
    const res = await api.get(`/api/boards/${board.id}/export?format=csv`);
    expectStatus(res, 200);
    expect(res.body).toContain(`Todo,Spaces,"'   =HYPERLINK(""http://evil"")",`);
    expect(res.body).toContain(`Todo,Newline,"'\n=cmd|' /C calc'!A0",`);
    expect(res.body).toContain(`Todo,CRLF and tab,"'\r\n\t@SUM(A1)",`);
    expect(res.body).toContain(`Todo,Ideographic space,'\u3000+1+1,`);
    expect(res.body).toContain(`Todo,No-break space,'\u00a0-2+3,`);
    expect(res.body).toContain(`Todo,"'＝HYPERLINK(""http://evil"")",`);
    expect(res.body).toContain(`Todo,'＋1＋1,`);
    expect(res.body).toContain(`Todo,'－2＋3,`);
    expect(res.body).toContain(`Todo,'＠SUM(A1),`);
    expect(res.body).toContain('Todo,"A = B, not a formula",x = 1,');
  }, 180_000);
});
