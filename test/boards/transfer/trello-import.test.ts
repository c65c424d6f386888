import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, expectError, expectStatus } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { FIXTURE_NAMES, generatedExport, readFixture } from './trello-fixtures.js';

/** POST /api/boards/import with Trello's exports: the real ones in ../shared/fixtures/trello and generated ones. */
const t = useTestApp(BOARD_TEST_ENV);

async function importer() {
  const user = await makeUser(t.db);
  const key = await makeKey(t.db, user.id);
  return { user, key, api: client(t.app, key.auth) };
}

const COLORS = new Set(['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black']);
const ourColor = (c: string | null) => (c ? (COLORS.has(c.replace(/_(dark|light)$/, '')) ? c.replace(/_(dark|light)$/, '') : null) : null);
const byPos = (xs: any[]) => [...xs].sort((a, b) => a.pos - b.pos);
const placed = (xs: any[]) => [...byPos(xs).filter((x) => !x.closed), ...byPos(xs).filter((x) => x.closed)];

/** The imported board as the database holds it, every mapped part in order. */
async function readBack(boardId: number) {
  return t.db.prisma.board.findUniqueOrThrow({
    where: { id: boardId },
    include: {
      labels: { orderBy: { id: 'asc' } },
      customFields: { orderBy: { id: 'asc' } },
      members: true,
      lists: {
        orderBy: { id: 'asc' },
        include: {
          cards: {
            orderBy: { id: 'asc' },
            include: {
              labels: { include: { label: true } },
              assignees: true,
              fieldValues: { include: { field: true } },
              checklists: { orderBy: { position: 'asc' }, include: { items: { orderBy: { position: 'asc' } } } },
              comments: { orderBy: { id: 'asc' } },
              attachments: { orderBy: { id: 'asc' } },
            },
          },
        },
      },
    },
  });
}

/** Every mapped field of a Trello export, compared with what the import made, derived here independently of the importer. */
function compareWithExport(json: any, board: Awaited<ReturnType<typeof readBack>>) {
  expect(board.name).toBe(json.name.trim().slice(0, 100));
  const background = json.prefs?.background === 'sky' ? 'teal' : json.prefs?.background;
  expect(board.color).toBe(['blue', 'orange', 'green', 'red', 'purple', 'pink', 'lime', 'teal', 'grey'].includes(background) ? background : 'blue');
  expect(board.labels.map((l) => [l.name, l.color])).toEqual(
    json.labels.map((l: any) => {
      const color = ourColor(l.color);
      return [l.name?.trim() || (color ? color[0]!.toUpperCase() + color.slice(1) : 'No colour'), color];
    }),
  );
  const lists = placed(json.lists);
  expect(board.lists.map((l) => [l.name, l.archived])).toEqual(lists.map((l: any) => [l.name.trim(), l.closed]));
  expect(board.lists.filter((l) => !l.archived).map((l) => l.position)).toEqual(lists.filter((l: any) => !l.closed).map((_: any, i: number) => i));
  const labelName = new Map(json.labels.map((l: any, i: number) => [l.id, board.labels[i]!.name]));
  const comments = json.actions.filter((a: any) => a.type === 'commentCard');
  lists.forEach((list: any, l: number) => {
    const ours = board.lists[l]!;
    const cards = placed(json.cards.filter((c: any) => c.idList === list.id));
    expect(ours.cards.map((c) => [c.title, c.archived])).toEqual(cards.map((c: any) => [c.name.trim(), c.closed]));
    expect(ours.cards.filter((c) => !c.archived).map((c) => c.position)).toEqual(cards.filter((c: any) => !c.closed).map((_: any, i: number) => i));
    cards.forEach((card: any, i: number) => {
      const got = ours.cards[i]!;
      expect(got.description.startsWith(card.desc.trim())).toBe(true);
      // Every attachment is a link attachment to where it is (an upload: on Trello), with its name; none is in the text.
      expect(got.attachments.map((a) => [a.filename, a.url, a.storageKey])).toEqual(
        (card.attachments ?? []).filter((a: any) => /^https?:/.test(a.url)).map((a: any) => [(a.name || a.url).replace(/\s+/g, ' ').trim(), new URL(a.url).href, null]),
      );
      expect(got.description).not.toContain('trello-attachments');
      expect(got.dueAt?.toISOString() ?? null).toBe(card.due ? new Date(card.due).toISOString() : null);
      expect(got.createdAt.toISOString()).toBe(new Date(parseInt(card.id.slice(0, 8), 16) * 1000).toISOString()); // Trello ids hold it
      expect(got.labels.map((x) => x.label.name).sort()).toEqual(card.idLabels.map((id: string) => labelName.get(id)).sort());
      const checklists = byPos(json.checklists.filter((c: any) => c.idCard === card.id));
      expect(got.checklists.map((c) => [c.name, c.items.map((x) => [x.name, x.checked])])).toEqual(
        checklists.map((c: any) => [c.name.trim(), byPos(c.checkItems).map((x: any) => [x.name.trim(), x.state === 'complete'])]),
      );
      const said = comments.filter((a: any) => a.data.card.id === card.id).sort((a: any, b: any) => a.date.localeCompare(b.date));
      expect(got.comments.map((c) => c.createdAt.toISOString())).toEqual(said.map((a: any) => new Date(a.date).toISOString()));
      got.comments.forEach((c, k) => {
        expect(c.text).toContain(said[k].data.text.trim());
        // The original author, by name without an account here (not matched), marked as Trello's; the text as written.
        expect(c.authorId).toBeNull();
        expect(c.authorName).toBe(`${said[k].memberCreator.fullName} (from Trello)`);
        expect(c.text).toBe(said[k].data.text.trim());
      });
      // Not matched: every member of the card is named in its text.
      for (const id of card.idMembers) {
        const member = json.members.find((m: any) => m.id === id);
        if (member) expect(got.description).toContain(`${member.fullName} (@${member.username})`);
      }
      expect(got.assignees).toEqual([]);
    });
  });
}

describe('POST /api/boards/import: the real Trello exports', () => {
  for (const name of FIXTURE_NAMES) {
    it(`imports ${name} with every mapped field, and reports what it left out`, async () => {
      const { api, user, key } = await importer();
      const { text, json } = readFixture(name);
      const res = await t.app.inject({ method: 'POST', url: '/api/boards/import', headers: { ...key.auth, 'content-type': 'application/json' }, payload: text });
      expectStatus(res, 201);
      const body = res.json();
      expect(body.source).toBe('trello');
      expect(body.board).toMatchObject({ name: json.name, role: 'admin' });
      expect(body.summary).toMatchObject({ lists: json.lists.length, cards: json.cards.length, labels: json.labels.length, checklists: json.checklists.length });
      const board = await readBack(body.board.id);
      expect(board.members.map((m) => [m.userId, m.role])).toEqual([[user.id, 'admin']]);
      compareWithExport(json, board);
      if (json.actions.some((a: any) => a.type !== 'commentCard')) expect(body.unmapped.map((u: any) => u.what)).toContain('history (actions other than comments: moves, edits, …)');
      // The board reads back through the API like any other.
      expectStatus(await api.get(`/api/boards/${body.board.id}`), 200);
    });
  }

  it('takes the file as a multipart upload too (part "file")', async () => {
    const { key } = await importer();
    const { text } = readFixture('trello2planka-simple-project-board');
    const boundary = '----import-test';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="board.json"\r\nContent-Type: application/json\r\n\r\n${text}\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({ method: 'POST', url: '/api/boards/import', headers: { ...key.auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expectStatus(res, 201);
    expect(res.json().summary.cards).toBe(10);
  });

  it('with dryRun=true answers the counts and the report and creates nothing', async () => {
    const { api, user } = await importer();
    const { json } = readFixture('gocd-test-drive');
    const res = await api.post('/api/boards/import?dryRun=true', json);
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({ board: null, summary: { lists: 18, archivedLists: 12, cards: 122, archivedCards: 78, comments: 93 } });
    expect(await t.db.prisma.boardMember.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('POST /api/boards/import: an export of the documented shape, with custom fields', () => {
  it('maps custom fields of the five types with their values, start dates, done due dates, shades, links; refuses javascript: links', async () => {
    const { api } = await importer();
    const json = generatedExport({ cards: 60, comments: 120 });
    json.checklists[0].checkItems[0].due = '2030-01-01T00:00:00.000Z';
    const res = await api.post('/api/boards/import', json);
    expectStatus(res, 201);
    const body = res.json();
    const board = await readBack(body.board.id);
    expect(board.customFields.map((f) => [f.name, f.type, f.options])).toEqual([
      ['Notes', 'text', []], ['Estimate', 'number', []], ['Review on', 'date', []], ['Approved', 'checkbox', []], ['Priority', 'list', ['High', 'Low']],
      ['Start date', 'date', []], ['Due date done', 'checkbox', []],
    ]);
    // Trello's shades survive: red_dark is red + dark, sky_light sky + light.
    expect(board.labels.map((l) => [l.name, l.color, l.shade])).toEqual([['Bug', 'red', 'dark'], ['Sky', 'sky', 'light']]);
    const cards = board.lists.flatMap((l) => l.cards);
    for (const source of json.cards) {
      const i = Number(source.name.split(' ')[1]);
      const card = cards.find((c) => c.title === source.name)!;
      const values = Object.fromEntries(card.fieldValues.map((v) => [v.field.name, v.value]));
      expect(values).toEqual({
        Notes: `note ${i}`, Estimate: i + 0.5, 'Review on': '2031-02-03T04:05:06.000Z', Approved: i % 2 === 0, Priority: i % 2 === 0 ? 'Low' : 'High',
        'Due date done': i % 3 === 0, ...(i % 4 === 0 ? { 'Start date': '2029-12-01T00:00:00.000Z' } : {}),
      });
      expect(card.archived).toBe(source.closed);
      expect(card.checklists[0]!.items.map((x) => [x.name, x.checked])).toEqual([['first', true], ['second', false]]);
      if (i % 50 === 0) {
        expect(card.attachments.map((a) => [a.filename, a.url])).toEqual([['Spec', 'https://example.com/spec?a=1']]);
        expect(card.description).not.toContain('javascript:');
      }
    }
    const what = body.unmapped.map((u: any) => u.what);
    expect(what).toContain('attachment links that are not http(s) (refused)');
    expect(body.unmapped.find((u: any) => u.what.startsWith('attachment links')).examples[0]).toContain('javascript:alert(1)');
    expect(what).toContain('cover colours (our covers are attached pictures)');
    expect(what).toContain("checklist items' own due dates and members (the items are kept)");
    expect(board.lists.flatMap((l) => l.cards).reduce((n, c) => n + c.comments.length, 0)).toBe(120);
  });

  it('matches members by e-mail or username only when asked, and only people the importer shares a board with', async () => {
    const { api, user } = await importer();
    const ada = await makeUser(t.db, { email: `ada-${Date.now()}@example.com`, name: 'Ada here' });
    const grace = await makeUser(t.db, { email: 'grace@example.org', name: 'Grace here' });
    await makeBoard(t.db, user.id, [{ userId: ada.id, role: 'member' }]); // a colleague; Grace is a stranger
    const json = generatedExport({ cards: 10, comments: 10 });
    (json.members[0] as any).email = ada.email;

    const plain = (await api.post('/api/boards/import', json)).json();
    expect(plain.summary.matchedMembers).toBe(0);
    const matched = await api.post('/api/boards/import?matchMembers=true', json);
    expectStatus(matched, 201);
    expect(matched.json().summary.matchedMembers).toBe(1);
    const board = await readBack(matched.json().board.id);
    // Trello's admin joins as a member: only the importer is the new board's admin.
    expect(board.members.map((m) => [m.userId, m.role]).sort()).toEqual([[ada.id, 'member'], [user.id, 'admin']].sort());
    const cards = board.lists.flatMap((l) => l.cards);
    const adaCards = cards.filter((c) => c.assignees.some((a) => a.userId === ada.id));
    expect(adaCards.length).toBe(5);
    expect(cards.flatMap((c) => c.assignees).every((a) => a.userId === ada.id)).toBe(true);
    // Grace (@grace) was not matched: a stranger to the importer, even though grace@… exists.
    expect(cards.some((c) => c.description.includes('Grace Hopper (@grace)'))).toBe(true);
    const comments = cards.flatMap((c) => c.comments);
    // Ada's are hers, as she wrote them, on Trello's date (issue #46 item 9: no "(imported)" line in the text).
    const adas = comments.filter((c) => c.authorId === ada.id);
    expect(adas.length).toBeGreaterThan(0);
    const said = new Map(json.actions.map((a) => [a.data.text, a.date]));
    expect(adas.every((c) => c.authorName === 'Ada here' && /^Comment \d+$/.test(c.text) && c.createdAt.toISOString() === said.get(c.text))).toBe(true);
    // Grace has no account here: her comments are hers by name alone, marked as Trello's, one shape with a ticket requester's.
    expect(comments.filter((c) => c.authorId !== ada.id).every((c) => c.authorId === null && c.authorName === 'Grace Hopper (from Trello)')).toBe(true);
    void grace;
  });

  it('imports 2,000 cards with 10,000 actions in one request', async () => {
    const { api, key } = await importer();
    const json = generatedExport({ cards: 2000, comments: 10_000 });
    const res = await t.app.inject({ method: 'POST', url: '/api/boards/import', headers: { ...key.auth, 'content-type': 'application/json' }, payload: JSON.stringify(json) });
    expectStatus(res, 201);
    const id = res.json().board.id;
    expect(await t.db.prisma.card.count({ where: { boardId: id } })).toBe(2000);
    expect(await t.db.prisma.comment.count({ where: { card: { boardId: id } } })).toBe(10_000);
    expect(await t.db.prisma.checklistItem.count({ where: { checklist: { card: { boardId: id } } } })).toBe(4000);
    // Searchable like any card (the search triggers ran).
    const hit = await api.get(`/api/boards/${id}/search?q=${encodeURIComponent('"Card 1998"')}`);
    expectStatus(hit, 200);
    expect(hit.json().cards[0].title).toBe('Card 1998');
  }, 180_000);
});

describe('POST /api/boards/import: who may', () => {
  it('refuses a read key (403 or 401), a key limited to chosen boards (403), and no credential (401)', async () => {
    const { user } = await importer();
    const json = generatedExport({ cards: 2, comments: 0 });
    const read = await makeKey(t.db, user.id, { permission: 'read' });
    expect([401, 403]).toContain((await client(t.app, read.auth).post('/api/boards/import', json)).statusCode);
    const board = await makeBoard(t.db, user.id);
    const limited = await makeKey(t.db, user.id, { boardIds: [board.id] });
    expectError(await client(t.app, limited.auth).post('/api/boards/import', json), 403, /limited to chosen boards/);
    expectError(await client(t.app, {}).post('/api/boards/import', json), 401);
  });
});

describe('POST /api/boards/import: dates outside the years 0001-9999 (issue #44, item 8: a 500, rolled back)', () => {
  it('imports a Trello export whose due dates and comment dates are year 0 or past 9999, leaving those dates out and naming the cards in the preview', async () => {
    const { api } = await importer();
    const json = generatedExport({ cards: 4, comments: 2 });
    json.cards[0]!.due = '0000-01-01T00:00:00Z';
    json.cards[1]!.due = '+010000-01-01T00:00:00.000Z';
    json.actions[0]!.date = '0000-06-01T00:00:00Z';
    const preview = await api.post('/api/boards/import?dryRun=true', json);
    expectStatus(preview, 200);
    const left = preview.json().unmapped.find((u: any) => u.what.startsWith('due dates'));
    expect(left).toMatchObject({ what: 'due dates that are not dates, or outside the years 0001-9999 (left out)', count: 2 });
    expect([...left.examples].sort()).toEqual(['Card 0: 0000-01-01T00:00:00Z', 'Card 1: +010000-01-01T00:00:00.000Z']);
    const res = await api.post('/api/boards/import', json);
    expectStatus(res, 201);
    const cards = (await readBack(res.json().board.id)).lists.flatMap((l) => l.cards);
    expect(cards.find((c) => c.title === 'Card 0')!.dueAt).toBeNull();
    expect(cards.find((c) => c.title === 'Card 1')!.dueAt).toBeNull();
    expect(cards.find((c) => c.title === 'Card 2')!.dueAt?.toISOString()).toBe(json.cards[2]!.due);
    // The comment without a date it could keep is reported, the other kept.
    expect(res.json().unmapped.map((u: any) => u.what)).toContain('comments without text or date');
    expect(cards.reduce((n, c) => n + c.comments.length, 0)).toBe(1);
  });

  it('refuses our own board file with a year-0 date with a 400 naming the card and the field (our exports never hold one)', async () => {
    const { api } = await importer();
    const file = {
      format: 'taskboard-board', version: 1, board: { name: 'B', description: '', archived: false }, labels: [], customFields: [], members: [],
      lists: [{ name: 'L', archived: false, position: 0, cards: [{ title: 'C', description: '', archived: false, position: 0, dueAt: '0000-01-01T00:00:00Z', labels: [], members: [], fieldValues: {}, checklists: [], comments: [], attachments: [] }] }],
    };
    expectError(await api.post('/api/boards/import', file), 400, /^file: lists\[0\]\.cards\[0\]\.dueAt: must be an ISO-8601 date-time, years 0001-9999$/);
    file.lists[0]!.cards[0]!.dueAt = '9999-12-31T23:59:59Z';
    expectStatus(await api.post('/api/boards/import', file), 201);
  });
});
