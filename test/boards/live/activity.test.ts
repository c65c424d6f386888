import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  type Client,
  client,
  expectCardSummary,
  expectError,
  expectFieldError,
  expectList,
  expectStatus,
  makeCard,
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** The activity log: one row per change, with its actor and data; newest first, paginated (SPEC §3). */
const t = useTestApp(BOARD_TEST_ENV);

async function activities(api: Client, boardId: number, query = ''): Promise<any[]> {
  const res = await api.get(`/api/boards/${boardId}/activity${query}`);
  expectStatus(res, 200);
  return res.json().activities;
}

/** Every activity of a board, oldest first, following nextBefore to the end. */
async function allActivities(api: Client, boardId: number, pageSize = 200): Promise<any[]> {
  const out: any[] = [];
  let before: number | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await api.get(`/api/boards/${boardId}/activity?limit=${pageSize}${before === null ? '' : `&before=${before}`}`);
    expectStatus(res, 200);
    const body = res.json();
    out.push(...body.activities);
    if (body.nextBefore === null) return out.reverse();
    before = body.nextBefore;
  }
  throw new Error('activity pagination did not end');
}

function expectActivity(a: any, boardId: number) {
  expect(a).toMatchObject({
    id: expect.any(Number),
    boardId,
    type: expect.stringMatching(/^[a-z_]+\.[a-z_]+$/),
    actor: { userId: expect.any(Number), name: expect.any(String) },
    data: expect.any(Object),
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
  });
  expect(a.actor).toHaveProperty('keyId');
}

describe('every change writes one activity', () => {
  it('records board, list, card and member changes in order, each with its actor and data', async () => {
    const admin = await makeUser(t.db);
    const newcomer = await makeUser(t.db);
    const board = await makeBoard(t.db, admin.id);
    const { key, auth } = await makeKey(t.db, admin.id);
    const api = client(t.app, auth);
    const base = `/api/boards/${board.id}`;
    expect(await activities(api, board.id)).toEqual([]);

    const steps: { type: string; check: (a: any) => void }[] = [];
    const step = (type: string, check: (a: any) => void = () => {}) => steps.push({ type, check });

    const renamed = (await api.patch(base, { name: 'Renamed board' })).json();
    step('board.updated', (a) => expect(a.data).toMatchObject({ board: { id: board.id, name: 'Renamed board' } }));
    expect(renamed.name).toBe('Renamed board');

    const todo = await makeList(api, board.id, 'Todo');
    step('list.created', (a) => expect(a.data).toMatchObject({ listId: todo.id, list: { id: todo.id, name: 'Todo', position: 0 } }));
    const doing = await makeList(api, board.id, 'Doing');
    step('list.created', (a) => expect(a.data).toMatchObject({ listId: doing.id, list: { id: doing.id, name: 'Doing' } }));

    expectStatus(await api.patch(`/api/lists/${todo.id}`, { name: 'To do' }), 200);
    step('list.updated', (a) => {
      expect(a.data).toMatchObject({ listId: todo.id, list: { id: todo.id, name: 'To do' } });
      expectList(a.data.list);
    });

    expectStatus(await api.post(`/api/lists/${doing.id}/move`, { position: 0 }), 200);
    step('list.moved', (a) =>
      expect(a.data).toMatchObject({
        listId: doing.id,
        list: { id: doing.id, position: 0 },
        from: { boardId: board.id, position: 1 },
        to: { boardId: board.id, position: 0 },
      }),
    );

    const card = await makeCard(api, todo.id, 'Card one');
    step('card.created', (a) => {
      expect(a.data).toMatchObject({ cardId: card.id, card: { id: card.id, title: 'Card one', listId: todo.id, version: card.version } });
      expectCardSummary(a.data.card);
    });
    const second = await makeCard(api, todo.id, 'Card two');
    step('card.created', (a) => expect(a.data).toMatchObject({ cardId: second.id }));

    const edited = (await api.patch(`/api/cards/${card.id}`, { title: 'Card one, edited' })).json();
    step('card.updated', (a) => expect(a.data).toMatchObject({ cardId: card.id, card: { id: card.id, title: 'Card one, edited', version: edited.version } }));

    const moved = (await api.post(`/api/cards/${card.id}/move`, { listId: doing.id, position: 0 })).json();
    step('card.moved', (a) =>
      expect(a.data).toMatchObject({
        cardId: card.id,
        card: { id: card.id, listId: doing.id, position: 0, version: moved.version },
        from: { listId: todo.id, position: 0 },
        to: { listId: doing.id, position: 0 },
      }),
    );

    const copy = (await api.post(`/api/cards/${second.id}/copy`, { title: 'Copy of two' })).json();
    step('card.copied', (a) => expect(a.data).toMatchObject({ card: { id: copy.id, title: 'Copy of two', listId: todo.id } }));

    expectStatus(await api.patch(`/api/cards/${copy.id}`, { archived: true }), 200);
    step('card.archived', (a) => expect(a.data).toMatchObject({ cardId: copy.id, card: { id: copy.id, archived: true } }));

    expectStatus(await api.del(`/api/cards/${second.id}`), 204);
    step('card.deleted', (a) => expect(a.data).toMatchObject({ cardId: second.id }));

    expectStatus(await api.patch(`/api/lists/${todo.id}`, { archived: true }), 200);
    step('list.archived', (a) => expect(a.data).toMatchObject({ listId: todo.id, list: { id: todo.id, archived: true } }));

    expectStatus(await api.post(`${base}/members`, { email: newcomer.email, role: 'observer' }), 201);
    step('member.added', (a) => expect(a.data).toMatchObject({ userId: newcomer.id }));
    expectStatus(await api.patch(`${base}/members/${newcomer.id}`, { role: 'member' }), 200);
    step('member.updated', (a) => expect(a.data).toMatchObject({ userId: newcomer.id }));
    expectStatus(await api.del(`${base}/members/${newcomer.id}`), 204);
    step('member.removed', (a) => expect(a.data).toMatchObject({ userId: newcomer.id }));

    const newestFirst = await activities(api, board.id);
    expect(newestFirst.map((a) => a.type)).toEqual(steps.map((s) => s.type).reverse());
    const ids = newestFirst.map((a) => a.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const oldestFirst = [...newestFirst].reverse();
    steps.forEach((s, i) => {
      const a = oldestFirst[i];
      expectActivity(a, board.id);
      expect(a.actor).toEqual({ userId: admin.id, name: admin.name, keyId: key.id, client: null });
      s.check(a);
    });
  });

  it('names the key that made a change, and keyId null for a session', async () => {
    const team = await makeTeam(t);
    const session = client(t.app, await loginCookie(t.app, team.member.email, team.member.password));
    await makeCard(session, team.list.id, 'By session');
    await makeCard(team.as.member, team.list.id, 'By key');
    const [byKey, bySession] = await activities(team.as.admin, team.board.id, '?limit=2');
    expect(bySession.type).toBe('card.created');
    expect(bySession.actor).toEqual({ userId: team.member.id, name: team.member.name, keyId: null, client: null });
    expect(byKey.actor).toEqual({ userId: team.member.id, name: team.member.name, keyId: team.keys.member.key.id, client: null });
  });

  it('writes nothing for a refused or invalid request', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const before = await allActivities(team.as.admin, team.board.id);
    expectFieldError(await team.as.admin.patch(`/api/cards/${card.id}`, { title: '' }), 'title');
    expectError(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'x' }, { 'if-match': `"${card.version + 100}"` }), 409);
    expectError(await team.as.observer.patch(`/api/cards/${card.id}`, { title: 'x' }), 403);
    expectError(await team.as.member.del(`/api/cards/${card.id}`), 403);
    expectError(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: team.list.id, position: 5 }), 400);
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.admin.id}`), 409);
    expect(await allActivities(team.as.admin, team.board.id)).toEqual(before);
  });

  it('keeps each board\'s activity to itself, and lets every role read it', async () => {
    const team = await makeTeam(t);
    const other = await makeBoard(t.db, team.admin.id);
    await makeList(team.as.admin, other.id, 'Elsewhere');
    const own = await activities(team.as.observer, team.board.id);
    expect(own.map((a) => a.type)).toEqual(['list.created']);
    expect(own[0].data.listId).toBe(team.list.id);
    expect((await activities(team.as.member, team.board.id)).map((a) => a.id)).toEqual(own.map((a) => a.id));
    expect((await activities(team.as.admin, other.id)).map((a) => a.type)).toEqual(['list.created']);
  });
});

describe('GET /api/boards/{id}/activity pagination', () => {
  it('returns {"activities": [...], "nextBefore"}: newest first, 50 by default, the cursor leading to older ones', async () => {
    const team = await makeTeam(t);
    for (let i = 0; i < 54; i++) expectStatus(await team.as.admin.patch(`/api/lists/${team.list.id}`, { name: `Name ${i}` }), 200);
    // 55 in all: list.created + 54 list.updated.
    const first = await team.as.member.get(`/api/boards/${team.board.id}/activity`);
    expectStatus(first, 200);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual(['activities', 'nextBefore']);
    expect(body.activities).toHaveLength(50);
    expect(body.activities[0]).toMatchObject({ type: 'list.updated', data: { list: { name: 'Name 53' } } });
    expect(typeof body.nextBefore).toBe('number');

    const rest = (await team.as.member.get(`/api/boards/${team.board.id}/activity?before=${body.nextBefore}`)).json();
    expect(rest.activities).toHaveLength(5);
    expect(rest.nextBefore).toBeNull();
    expect(rest.activities.at(-1).type).toBe('list.created');
    const all = [...body.activities, ...rest.activities];
    const ids = all.map((a: any) => a.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    expect(new Set(ids).size).toBe(55);
    expect(Math.max(...rest.activities.map((a: any) => a.id))).toBeLessThan(Math.min(...body.activities.map((a: any) => a.id)));
  });

  it('pages with ?limit, ending with nextBefore null', async () => {
    const team = await makeTeam(t);
    for (let i = 0; i < 4; i++) await makeList(team.as.admin, team.board.id, `L${i}`);
    // 5 in all.
    const all = await activities(team.as.admin, team.board.id);
    expect(all).toHaveLength(5);
    const pages: any[][] = [];
    let before: number | null = null;
    do {
      const res = await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=2${before === null ? '' : `&before=${before}`}`);
      expectStatus(res, 200);
      pages.push(res.json().activities);
      before = res.json().nextBefore;
    } while (before !== null && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((a) => a.id)).toEqual(all.map((a) => a.id));
  });

  it('takes limit 1 to 200; 0, 201 or a non-number is 400 naming limit', async () => {
    const team = await makeTeam(t);
    const url = `/api/boards/${team.board.id}/activity`;
    expectStatus(await team.as.admin.get(`${url}?limit=1`), 200);
    expectStatus(await team.as.admin.get(`${url}?limit=200`), 200);
    for (const bad of ['201', '0', '-1', 'ten', '1.5']) {
      expectError(await team.as.admin.get(`${url}?limit=${bad}`), 400, /limit/);
    }
  });

  it('refuses a malformed before with 400 naming it', async () => {
    const team = await makeTeam(t);
    const url = `/api/boards/${team.board.id}/activity`;
    for (const bad of ['abc', '-5', '0', '1.5', '12abc']) {
      expectError(await team.as.admin.get(`${url}?before=${bad}`), 400, /before/);
    }
  });
});
