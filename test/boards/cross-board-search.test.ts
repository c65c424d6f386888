import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  CARD_SUMMARY_KEYS,
  type Client,
  client,
  expectError,
  expectQueryError,
  expectStatus,
  getCard,
  idsOf,
  makeCard,
  makeList,
  makeTeam,
  summaryOf,
} from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** GET /search (every board the credential reaches) and GET /cards?member=me, both paged with ?cursor=. */
const t = useTestApp(BOARD_TEST_ENV);

async function page(api: Client, url: string) {
  const res = await api.get(url);
  expectStatus(res, 200);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['cards', 'nextCursor']);
  return body as { cards: any[]; nextCursor: string | null };
}

/** Every page of a paged URL (`?…&limit=n`), following nextCursor. */
async function allPages(api: Client, url: string) {
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const body = await page(api, cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url);
    pages.push(body.cards);
    cursor = body.nextCursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor);
  return pages;
}

/** A user with two boards of theirs (a list each), and a board of someone else's. */
async function twoBoards() {
  const user = await makeUser(t.db);
  const key = await makeKey(t.db, user.id);
  const api = client(t.app, key.auth);
  const a = await makeBoard(t.db, user.id);
  const b = await makeBoard(t.db, user.id);
  const listA = await makeList(api, a.id, 'A');
  const listB = await makeList(api, b.id, 'B');
  const other = await makeTeam(t);
  return { user, api, a, b, listA, listB, other };
}

describe('GET /api/search', () => {
  it('searches every board of the user, best first, as card summaries with a score; never other boards', async () => {
    const w = await twoBoards();
    const tag = `zebra${w.a.id}`;
    const inTitle = await makeCard(w.api, w.listA.id, `${tag} crossing`);
    const inDescription = await makeCard(w.api, w.listB.id, 'Elsewhere', `about the ${tag}`);
    await makeCard(w.other.as.admin, w.other.list.id, `${tag} on a board of someone else`);
    await makeCard(w.api, w.listA.id, 'unrelated');
    const { cards, nextCursor } = await page(w.api, `/api/search?q=${tag}`);
    expect(idsOf(cards)).toEqual([inTitle.id, inDescription.id]);
    expect(nextCursor).toBeNull();
    expect(Object.keys(cards[0]).sort()).toEqual([...CARD_SUMMARY_KEYS, 'score'].sort());
    expect(cards[0].score).toBeGreaterThan(cards[1].score);
    const { score: _s, ...summary } = cards[0];
    expect(summary).toEqual(summaryOf(await getCard(w.api, inTitle.id)));
  });

  it("gives the per-board search's results and scores for one board", async () => {
    const w = await twoBoards();
    const tag = `walrus${w.a.id}`;
    await makeCard(w.api, w.listA.id, `${tag} one`, `${tag} again`);
    await makeCard(w.api, w.listA.id, `two`, `${tag}`);
    const perBoard = (await w.api.get(`/api/boards/${w.a.id}/search?q=${tag}`)).json().cards;
    expect((await page(w.api, `/api/search?q=${tag}`)).cards).toEqual(perBoard);
  });

  it('with a key limited to chosen boards, searches those only; a read key may search', async () => {
    const w = await twoBoards();
    const tag = `okapi${w.a.id}`;
    const onA = await makeCard(w.api, w.listA.id, tag);
    await makeCard(w.api, w.listB.id, tag);
    const limited = client(t.app, (await makeKey(t.db, w.user.id, { boardIds: [w.a.id], permission: 'read' })).auth);
    expect(idsOf((await page(limited, `/api/search?q=${tag}`)).cards)).toEqual([onA.id]);
    const stranger = client(t.app, (await makeKey(t.db, w.other.stranger.id)).auth);
    expect((await page(stranger, `/api/search?q=${tag}`)).cards).toEqual([]);
  });

  it('leaves archived boards, lists and cards out unless archived=true', async () => {
    const w = await twoBoards();
    const tag = `lemur${w.a.id}`;
    const live = await makeCard(w.api, w.listA.id, tag);
    const archivedCard = await makeCard(w.api, w.listA.id, tag);
    expectStatus(await w.api.patch(`/api/cards/${archivedCard.id}`, { archived: true }), 200);
    const onArchivedBoard = await makeCard(w.api, w.listB.id, tag);
    expectStatus(await w.api.patch(`/api/boards/${w.b.id}`, { archived: true }), 200);
    expect(idsOf((await page(w.api, `/api/search?q=${tag}`)).cards)).toEqual([live.id]);
    const all = idsOf((await page(w.api, `/api/search?q=${tag}&archived=true`)).cards).sort((x, y) => x - y);
    expect(all).toEqual([live.id, archivedCard.id, onArchivedBoard.id].sort((x, y) => x - y));
  });

  it('pages with nextCursor: every hit once, in the order of one big page, ties broken by id', async () => {
    const w = await twoBoards();
    const tag = `tapir${w.a.id}`;
    for (let i = 0; i < 4; i++) await makeCard(w.api, w.listA.id, `${tag} card`); // equal scores
    for (let i = 0; i < 3; i++) await makeCard(w.api, w.listB.id, `card`, `${tag} in the description`);
    const whole = idsOf((await page(w.api, `/api/search?q=${tag}&limit=100`)).cards);
    expect(whole).toHaveLength(7);
    const pages = await allPages(w.api, `/api/search?q=${tag}&limit=2`);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat().map((c) => c.id)).toEqual(whole);
  });

  it('refuses a missing or long q, a bad limit and a malformed cursor with 400 naming it; no credential: 401', async () => {
    const w = await twoBoards();
    expectQueryError(await w.api.get('/api/search'), 'q');
    expectQueryError(await w.api.get(`/api/search?q=${'x'.repeat(201)}`), 'q');
    expectQueryError(await w.api.get('/api/search?q=a&limit=101'), 'limit');
    expectQueryError(await w.api.get('/api/search?q=a&limit=0'), 'limit');
    for (const cursor of ['nope', Buffer.from('[1]').toString('base64url'), Buffer.from('["x",1]').toString('base64url'), '%%%']) {
      expectQueryError(await w.api.get(`/api/search?q=a&cursor=${encodeURIComponent(cursor)}`), 'cursor');
    }
    expectError(await t.app.inject({ method: 'GET', url: '/api/search?q=a' }), 401);
  });
});

describe('GET /api/cards?member=me', () => {
  /** A user on two boards (and a board they are not on) with cards assigned to them or not. */
  async function assigned() {
    const w = await twoBoards();
    const assign = async (listId: number, title: string, dueAt?: string) => {
      const card = await makeCard(w.api, listId, title);
      const res = await w.api.post(`/api/lists/${listId}/cards`, { title, memberIds: [w.user.id], ...(dueAt ? { dueAt } : {}) });
      expectStatus(res, 201);
      await w.api.del(`/api/cards/${card.id}`); // an unassigned card came and went
      return res.json();
    };
    return { ...w, assign };
  }

  it('lists the cards assigned to you on every board, soonest due first, those without a due date last', async () => {
    const w = await assigned();
    const later = await w.assign(w.listA.id, 'later', '2031-01-01');
    const none1 = await w.assign(w.listB.id, 'no date');
    const soon = await w.assign(w.listB.id, 'soon', '2030-01-01T09:00:00Z');
    const none2 = await w.assign(w.listA.id, 'no date either');
    await makeCard(w.api, w.listA.id, 'not assigned');
    await w.other.as.admin.post(`/api/lists/${w.other.list.id}/cards`, { title: 'theirs', memberIds: [w.other.admin.id] });
    const { cards, nextCursor } = await page(w.api, '/api/cards?member=me');
    expect(idsOf(cards)).toEqual([soon.id, later.id, none1.id, none2.id]);
    expect(nextCursor).toBeNull();
    expect(Object.keys(cards[0]).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
    expect(cards[0]).toEqual(summaryOf(await getCard(w.api, soon.id)));
  });

  it('dueBefore: only cards due strictly before it (a bare date is 00:00 UTC)', async () => {
    const w = await assigned();
    const a = await w.assign(w.listA.id, 'a', '2030-03-01T00:00:00Z');
    const b = await w.assign(w.listA.id, 'b', '2030-02-28T23:59:59.999Z');
    await w.assign(w.listA.id, 'none');
    expect(idsOf((await page(w.api, '/api/cards?member=me&dueBefore=2030-03-01')).cards)).toEqual([b.id]);
    expect(idsOf((await page(w.api, '/api/cards?member=me&dueBefore=2030-03-01T00:00:00.001Z')).cards)).toEqual([b.id, a.id]);
    expectQueryError(await w.api.get('/api/cards?member=me&dueBefore=soon'), 'dueBefore');
  });

  it('leaves out archived cards, cards of archived lists and of archived boards, and cards after you left the board', async () => {
    const w = await assigned();
    const keep = await w.assign(w.listA.id, 'keep');
    const archived = await w.assign(w.listA.id, 'archived');
    expectStatus(await w.api.patch(`/api/cards/${archived.id}`, { archived: true }), 200);
    const listC = await makeList(w.api, w.a.id, 'C');
    await w.assign(listC.id, 'on an archived list');
    expectStatus(await w.api.patch(`/api/lists/${listC.id}`, { archived: true }), 200);
    await w.assign(w.listB.id, 'on an archived board');
    expectStatus(await w.api.patch(`/api/boards/${w.b.id}`, { archived: true }), 200);
    const team = w.other;
    expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: w.user.email, role: 'member' }), 201);
    expectStatus(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: 'x', memberIds: [w.user.id] }), 201);
    expect((await page(w.api, '/api/cards?member=me')).cards).toHaveLength(2);
    expectStatus(await team.as.admin.del(`/api/boards/${team.board.id}/members/${w.user.id}`), 204);
    expect(idsOf((await page(w.api, '/api/cards?member=me')).cards)).toEqual([keep.id]);
  });

  it('with a key limited to chosen boards, lists those only', async () => {
    const w = await assigned();
    const onA = await w.assign(w.listA.id, 'a');
    await w.assign(w.listB.id, 'b');
    const limited = client(t.app, (await makeKey(t.db, w.user.id, { boardIds: [w.a.id], permission: 'read' })).auth);
    expect(idsOf((await page(limited, '/api/cards?member=me')).cards)).toEqual([onA.id]);
  });

  it('pages with nextCursor across dated and undated cards: each card once, in order', async () => {
    const w = await assigned();
    const made = [];
    for (const due of ['2030-01-03', undefined, '2030-01-01', '2030-01-01', undefined, '2030-01-02', undefined]) {
      made.push(await w.assign(due ? w.listA.id : w.listB.id, 'c', due));
    }
    const whole = idsOf((await page(w.api, '/api/cards?member=me&limit=100')).cards);
    expect(whole).toHaveLength(7);
    for (const size of [1, 2, 3]) {
      const pages = await allPages(w.api, `/api/cards?member=me&limit=${size}`);
      expect(pages.flat().map((c) => c.id), `limit ${size}`).toEqual(whole);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
    }
    const dated = await allPages(w.api, '/api/cards?member=me&dueBefore=2030-01-03&limit=1');
    expect(dated.flat()).toHaveLength(3);
  });

  it('refuses a missing or other member, a bad limit and a malformed cursor with 400; no credential: 401', async () => {
    const w = await assigned();
    expectQueryError(await w.api.get('/api/cards'), 'member');
    expectQueryError(await w.api.get(`/api/cards?member=${w.user.id}`), 'member');
    expectQueryError(await w.api.get('/api/cards?member=me&limit=101'), 'limit');
    for (const cursor of ['x', Buffer.from('["2030-01-01",1]').toString('base64url'), Buffer.from('[null,0]').toString('base64url')]) {
      expectQueryError(await w.api.get(`/api/cards?member=me&cursor=${cursor}`), 'cursor');
    }
    expectError(await t.app.inject({ method: 'GET', url: '/api/cards?member=me' }), 401);
  });
});
