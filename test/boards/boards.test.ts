import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  client,
  expectBoard,
  expectCardSummary,
  expectCompactPositions,
  expectError,
  expectFieldError,
  expectList,
  expectNoContent,
  expectStatus,
  makeCard,
  makeCards,
  makeList,
  makeTeam,
} from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Boards: list, create, fetch, update, archive, delete, and the archived view (SPEC §3). */
const t = useTestApp(BOARD_TEST_ENV);

const ids = (items: { id: number }[]) => items.map((i) => i.id).sort((a, b) => a - b);

async function newUserWithKey() {
  const user = await makeUser(t.db);
  const key = await makeKey(t.db, user.id);
  return { user, key, api: client(t.app, key.auth) };
}

describe('GET /api/boards', () => {
  it('lists the caller\'s boards as {"boards": [...]}, each with the caller\'s role, never others\' boards', async () => {
    const { user, api } = await newUserWithKey();
    const other = await makeUser(t.db);
    const mine = await makeBoard(t.db, user.id);
    const shared = await makeBoard(t.db, other.id, [{ userId: user.id, role: 'observer' }]);
    const theirs = await makeBoard(t.db, other.id);

    const res = await api.get('/api/boards');
    expectStatus(res, 200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['boards']);
    expect(ids(body.boards)).toEqual(ids([mine, shared]));
    for (const b of body.boards) expectBoard(b);
    expect(body.boards.find((b: any) => b.id === mine.id).role).toBe('admin');
    expect(body.boards.find((b: any) => b.id === shared.id).role).toBe('observer');
    expect(body.boards.some((b: any) => b.id === theirs.id)).toBe(false);
  });

  it('shows active boards by default and with ?archived=false, only archived ones with ?archived=true', async () => {
    const { user, api } = await newUserWithKey();
    const active = await makeBoard(t.db, user.id);
    const archived = await makeBoard(t.db, user.id);
    expectStatus(await api.patch(`/api/boards/${archived.id}`, { archived: true }), 200);

    expect(ids((await api.get('/api/boards')).json().boards)).toEqual([active.id]);
    expect(ids((await api.get('/api/boards?archived=false')).json().boards)).toEqual([active.id]);
    const onlyArchived = (await api.get('/api/boards?archived=true')).json().boards;
    expect(ids(onlyArchived)).toEqual([archived.id]);
    expect(onlyArchived[0].archived).toBe(true);
  });

  it('refuses a malformed ?archived with 400 naming it', async () => {
    const { api } = await newUserWithKey();
    expectError(await api.get('/api/boards?archived=yes-please'), 400, /archived/);
  });
});

describe('POST /api/boards', () => {
  it('creates a board (201) whose creator is its admin', async () => {
    const { api } = await newUserWithKey();
    const res = await api.post('/api/boards', { name: 'Roadmap', description: 'What we build next' });
    expectStatus(res, 201);
    const board = res.json();
    expectBoard(board);
    expect(board).toMatchObject({ name: 'Roadmap', description: 'What we build next', archived: false, role: 'admin' });

    const fetched = await api.get(`/api/boards/${board.id}`);
    expectStatus(fetched, 200);
    expect(fetched.json()).toMatchObject({ id: board.id, name: 'Roadmap', role: 'admin' });
    expect(ids((await api.get('/api/boards')).json().boards)).toEqual([board.id]);
  });

  it('makes the description an empty string when none is given', async () => {
    const { api } = await newUserWithKey();
    const res = await api.post('/api/boards', { name: 'No description' });
    expectStatus(res, 201);
    expect(res.json().description).toBe('');
  });

  it('takes names of 1 to 100 characters and descriptions up to 16384', async () => {
    const { api } = await newUserWithKey();
    expectStatus(await api.post('/api/boards', { name: 'x' }), 201);
    expectStatus(await api.post('/api/boards', { name: 'n'.repeat(100), description: 'd'.repeat(16_384) }), 201);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a name that is not a string', { name: 42 }, 'name'],
    ['a description of 16385 characters', { name: 'ok', description: 'd'.repeat(16_385) }, 'description'],
    ['an unknown field', { name: 'ok', colour: 'blue' }, 'colour'],
    ['a colour not in the palette', { name: 'ok', color: 'chartreuse' }, 'color'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_what, payload, field) => {
    const { api } = await newUserWithKey();
    expectFieldError(await api.post('/api/boards', payload), field);
    expect((await api.get('/api/boards')).json()).toEqual({ boards: [] });
  });
});

describe('GET /api/boards/{id}', () => {
  it('returns the board with its non-archived lists by position, each with its non-archived cards by position', async () => {
    const team = await makeTeam(t);
    const { admin: api } = team.as;
    const todo = team.list;
    const doing = await makeList(api, team.board.id, 'Doing');
    const done = await makeList(api, team.board.id, 'Done');
    const shelved = await makeList(api, team.board.id, 'Shelved');
    const [a, b, c] = await makeCards(api, todo.id, 3, 'todo');
    const d = await makeCard(api, doing.id, 'doing');
    await makeCard(api, shelved.id, 'in an archived list');
    // Reorder: Done first; archive one list and one card.
    expectStatus(await api.post(`/api/lists/${done.id}/move`, { position: 0 }), 200);
    expectStatus(await api.patch(`/api/lists/${shelved.id}`, { archived: true }), 200);
    expectStatus(await api.patch(`/api/cards/${b.id}`, { archived: true }), 200);

    const res = await api.get(`/api/boards/${team.board.id}`);
    expectStatus(res, 200);
    const board = res.json();
    expectBoard(board);
    expect(board).toMatchObject({ id: team.board.id, name: team.board.name, role: 'admin', archived: false });
    expect(board.lists.map((l: any) => l.id)).toEqual([done.id, todo.id, doing.id]);
    expectCompactPositions(board.lists);
    for (const l of board.lists) {
      expectList(l);
      expect(l.boardId).toBe(team.board.id);
      expect(l.archived).toBe(false);
      expectCompactPositions(l.cards);
      for (const card of l.cards) {
        expectCardSummary(card);
        expect(card.listId).toBe(l.id);
        expect(card.boardId).toBe(team.board.id);
      }
    }
    expect(board.lists[0].cards).toEqual([]);
    expect(board.lists[1].cards.map((x: any) => x.id)).toEqual([a.id, c.id]);
    expect(board.lists[2].cards.map((x: any) => x.id)).toEqual([d.id]);
    expect(board.labels).toEqual([]);
    expect(board.customFields).toEqual([]);
  });

  it('lists every member with userId, name, email, role and avatarUrl', async () => {
    const team = await makeTeam(t);
    const res = await team.as.observer.get(`/api/boards/${team.board.id}`);
    expectStatus(res, 200);
    const board = res.json();
    expect(board.role).toBe('observer');
    const members = [...board.members].sort((x: any, y: any) => x.userId - y.userId);
    const expected = [
      { userId: team.admin.id, name: team.admin.name, email: team.admin.email, role: 'admin', avatarUrl: null },
      { userId: team.member.id, name: team.member.name, email: team.member.email, role: 'member', avatarUrl: null },
      { userId: team.observer.id, name: team.observer.name, email: team.observer.email, role: 'observer', avatarUrl: null },
    ].sort((x, y) => x.userId - y.userId);
    expect(members).toEqual(expected);
  });

  it('answers 404 {error} for an id that does not exist, and 400 for one that is not an id', async () => {
    const { api } = await newUserWithKey();
    expectError(await api.get('/api/boards/999999'), 404);
    expectError(await api.get('/api/boards/abc'), 400);
  });
});

describe('PATCH /api/boards/{id}', () => {
  it('lets an admin rename and describe the board (200 with the updated board)', async () => {
    const team = await makeTeam(t);
    const res = await team.as.admin.patch(`/api/boards/${team.board.id}`, { name: 'Renamed', description: 'New words' });
    expectStatus(res, 200);
    const board = res.json();
    expectBoard(board);
    expect(board).toMatchObject({ id: team.board.id, name: 'Renamed', description: 'New words', archived: false, role: 'admin' });
    expect((await team.as.member.get(`/api/boards/${team.board.id}`)).json()).toMatchObject({ name: 'Renamed', description: 'New words' });
  });

  it('archives and restores a board; an archived board stays reachable by id', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const archived = await team.as.admin.patch(`/api/boards/${team.board.id}`, { archived: true });
    expectStatus(archived, 200);
    expect(archived.json().archived).toBe(true);
    const fetched = await team.as.member.get(`/api/boards/${team.board.id}`);
    expectStatus(fetched, 200);
    expect(fetched.json().archived).toBe(true);
    expectStatus(await team.as.member.get(`/api/cards/${team.cards[0].id}`), 200);
    expect(ids((await team.as.member.get('/api/boards?archived=true')).json().boards)).toEqual([team.board.id]);

    const restored = await team.as.admin.patch(`/api/boards/${team.board.id}`, { archived: false });
    expectStatus(restored, 200);
    expect(restored.json().archived).toBe(false);
    expect(ids((await team.as.member.get('/api/boards')).json().boards)).toEqual([team.board.id]);
  });

  it('is for admins only: a member or an observer gets 403 and nothing changes', async () => {
    const team = await makeTeam(t);
    for (const api of [team.as.member, team.as.observer]) {
      expectError(await api.patch(`/api/boards/${team.board.id}`, { name: 'Hijacked' }), 403);
      expectError(await api.patch(`/api/boards/${team.board.id}`, { archived: true }), 403);
    }
    expect((await team.as.admin.get(`/api/boards/${team.board.id}`)).json()).toMatchObject({ name: team.board.name, archived: false });
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a description of 16385 characters', { description: 'd'.repeat(16_385) }, 'description'],
    ['archived that is not a boolean', { archived: 'yes' }, 'archived'],
    ['an unknown field', { owner: 1 }, 'owner'],
  ])('refuses %s with 400 naming the field', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.patch(`/api/boards/${team.board.id}`, payload), field);
  });

  it('applies nothing of a request that fails: a good name with a bad description leaves both unchanged', async () => {
    const team = await makeTeam(t);
    const before = (await team.as.admin.get(`/api/boards/${team.board.id}`)).json();
    expectFieldError(
      await team.as.admin.patch(`/api/boards/${team.board.id}`, { name: 'Half applied?', description: 'd'.repeat(16_385), archived: true }),
      'description',
    );
    const after = (await team.as.admin.get(`/api/boards/${team.board.id}`)).json();
    expect(after).toMatchObject({ name: before.name, description: before.description, archived: false, updatedAt: before.updatedAt });
  });
});

describe('DELETE /api/boards/{id}', () => {
  it('is for admins only: a member or an observer gets 403 and the board stays', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.member.del(`/api/boards/${team.board.id}`), 403);
    expectError(await team.as.observer.del(`/api/boards/${team.board.id}`), 403);
    expectStatus(await team.as.admin.get(`/api/boards/${team.board.id}`), 200);
  });

  it('deletes the board and everything on it (204, no body); afterwards it is 404 for everyone', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const res = await team.as.admin.del(`/api/boards/${team.board.id}`);
    expectNoContent(res);

    for (const api of [team.as.admin, team.as.member, team.as.observer]) {
      expectError(await api.get(`/api/boards/${team.board.id}`), 404);
      expectError(await api.get(`/api/boards/${team.board.id}/lists`), 404);
      expectError(await api.get(`/api/cards/${team.cards[0].id}`), 404);
    }
    expectError(await team.as.admin.patch(`/api/lists/${team.list.id}`, { name: 'gone?' }), 404);
    expectError(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: 'gone?' }), 404);
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}`), 404);
    expect((await team.as.admin.get('/api/boards')).json()).toEqual({ boards: [] });
    expect((await team.as.admin.get('/api/boards?archived=true')).json()).toEqual({ boards: [] });
  });

  it('deletes an archived board too', async () => {
    const team = await makeTeam(t);
    expectStatus(await team.as.admin.patch(`/api/boards/${team.board.id}`, { archived: true }), 200);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}`));
    expectError(await team.as.admin.get(`/api/boards/${team.board.id}`), 404);
  });
});

describe('GET /api/boards/{id}/archived', () => {
  it('returns {"lists": [...], "cards": [...]} with the archived lists and cards only', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const api = team.as.admin;
    const other = await makeList(api, team.board.id, 'Other');
    const oldList = await makeList(api, team.board.id, 'Old');
    expectStatus(await api.patch(`/api/lists/${oldList.id}`, { archived: true }), 200);
    expectStatus(await api.patch(`/api/cards/${team.cards[1].id}`, { archived: true }), 200);

    const res = await team.as.observer.get(`/api/boards/${team.board.id}/archived`);
    expectStatus(res, 200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['cards', 'lists']);
    expect(body.lists.map((l: any) => l.id)).toEqual([oldList.id]);
    expectList(body.lists[0]);
    expect(body.lists[0]).toMatchObject({ boardId: team.board.id, name: 'Old', archived: true });
    expect(body.cards.map((c: any) => c.id)).toEqual([team.cards[1].id]);
    expectCardSummary(body.cards[0]);
    expect(body.cards[0]).toMatchObject({ listId: team.list.id, archived: true });
    expect(body.lists.some((l: any) => l.id === other.id)).toBe(false);
  });

  it('is empty on a board with nothing archived', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expect((await team.as.member.get(`/api/boards/${team.board.id}/archived`)).json()).toEqual({ lists: [], cards: [] });
  });
});
