import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  type Client,
  expectCompactPositions,
  expectError,
  expectFieldError,
  expectList,
  expectStatus,
  fetchBoard,
  makeBoardOwner,
  makeCards,
  makeList,
  makeTeam,
} from '../board-factories.js';
import { makeBoard } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Lists: list, create, rename, archive, move (within and across boards) (SPEC §3). */
const t = useTestApp(BOARD_TEST_ENV);

/** The non-archived lists of a board as GET /boards/{id}/lists shows them, checked for order and shape. */
async function activeLists(api: Client, boardId: number) {
  const res = await api.get(`/api/boards/${boardId}/lists`);
  expectStatus(res, 200);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['lists']);
  for (const l of body.lists) expectList(l);
  const active = body.lists.filter((l: any) => !l.archived);
  expectCompactPositions(active);
  return active as any[];
}
const names = (lists: { name: string }[]) => lists.map((l) => l.name);

describe('GET /api/boards/{id}/lists', () => {
  it('returns {"lists": [...]} by position, each {id, boardId, name, position, archived}', async () => {
    const team = await makeTeam(t);
    await makeList(team.as.admin, team.board.id, 'Doing');
    await makeList(team.as.admin, team.board.id, 'Done');
    const lists = await activeLists(team.as.observer, team.board.id);
    expect(names(lists)).toEqual(['Todo', 'Doing', 'Done']);
    for (const l of lists) expect(l).toMatchObject({ boardId: team.board.id, archived: false });
  });
});

describe('POST /api/boards/{id}/lists', () => {
  it('adds a list at the end by default (201 with the list)', async () => {
    const team = await makeTeam(t);
    const res = await team.as.member.post(`/api/boards/${team.board.id}/lists`, { name: 'Doing' });
    expectStatus(res, 201);
    const list = res.json();
    expectList(list);
    expect(list).toMatchObject({ boardId: team.board.id, name: 'Doing', position: 1, archived: false });
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo', 'Doing']);
  });

  it('inserts at the position given, shifting the lists after it', async () => {
    const team = await makeTeam(t);
    await makeList(team.as.admin, team.board.id, 'Done');
    const first = await makeList(team.as.admin, team.board.id, 'Backlog', 0);
    expect(first.position).toBe(0);
    const middle = await makeList(team.as.admin, team.board.id, 'Doing', 2);
    expect(middle.position).toBe(2);
    const last = await makeList(team.as.admin, team.board.id, 'Archive me later', 4);
    expect(last.position).toBe(4);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Backlog', 'Todo', 'Doing', 'Done', 'Archive me later']);
  });

  it('refuses a position beyond the end, or negative, with 400 naming position', async () => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, { name: 'x', position: 2 }), 'position');
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, { name: 'x', position: -1 }), 'position');
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, { name: 'x', position: 0.5 }), 'position');
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo']);
  });

  it('takes names of 1 and 100 characters', async () => {
    const team = await makeTeam(t);
    expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, { name: 'x' }), 201);
    expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, { name: 'n'.repeat(100) }), 201);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a name that is not a string', { name: ['a'] }, 'name'],
    ['an unknown field', { name: 'ok', color: 'red' }, 'color'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/lists`, payload), field);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo']);
  });

  it('is refused to an observer (403)', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.observer.post(`/api/boards/${team.board.id}/lists`, { name: 'x' }), 403);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo']);
  });
});

describe('PATCH /api/lists/{id}', () => {
  it('renames a list (200 with the list), for a member too', async () => {
    const team = await makeTeam(t);
    const res = await team.as.member.patch(`/api/lists/${team.list.id}`, { name: 'To do' });
    expectStatus(res, 200);
    expectList(res.json());
    expect(res.json()).toMatchObject({ id: team.list.id, boardId: team.board.id, name: 'To do', position: 0, archived: false });
  });

  it('archives a list: it leaves the board fetch, the others close up to 0..n-1, its cards stay readable', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const res = await team.as.member.patch(`/api/lists/${team.list.id}`, { archived: true });
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({ id: team.list.id, archived: true });

    const lists = await activeLists(team.as.admin, team.board.id);
    expect(lists.map((l) => l.id)).toEqual([doing.id, done.id]);
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.lists.map((l: any) => l.id)).toEqual([doing.id, done.id]);
    expectCompactPositions(board.lists);
    const archived = (await team.as.admin.get(`/api/boards/${team.board.id}/archived`)).json();
    expect(archived.lists.map((l: any) => l.id)).toEqual([team.list.id]);
    expectStatus(await team.as.admin.get(`/api/cards/${team.cards[0].id}`), 200);
  });

  it('restores an archived list among the active ones, positions still 0..n-1', async () => {
    const team = await makeTeam(t);
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    expectStatus(await team.as.admin.patch(`/api/lists/${team.list.id}`, { archived: true }), 200);
    const restored = await team.as.admin.patch(`/api/lists/${team.list.id}`, { archived: false });
    expectStatus(restored, 200);
    expect(restored.json().archived).toBe(false);
    const lists = await activeLists(team.as.admin, team.board.id);
    expect(lists.map((l) => l.id).sort()).toEqual([team.list.id, doing.id].sort());
    expect(lists.find((l) => l.id === team.list.id).position).toBe(restored.json().position);
  });

  it('is refused to an observer (403), changing nothing', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.observer.patch(`/api/lists/${team.list.id}`, { name: 'x' }), 403);
    expectError(await team.as.observer.patch(`/api/lists/${team.list.id}`, { archived: true }), 403);
    expect(await activeLists(team.as.admin, team.board.id)).toMatchObject([{ id: team.list.id, name: 'Todo', archived: false }]);
  });

  it('answers 404 for a list that does not exist', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.patch('/api/lists/999999', { name: 'x' }), 404);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['archived that is not a boolean', { archived: 1 }, 'archived'],
    ['an unknown field', { position: 3 }, 'position'],
    ['another unknown field', { name: 'ok', boardId: 1 }, 'boardId'],
  ])('refuses %s with 400 naming the field, applying nothing', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.patch(`/api/lists/${team.list.id}`, payload), field);
    expect(await activeLists(team.as.admin, team.board.id)).toMatchObject([{ id: team.list.id, name: 'Todo', archived: false }]);
  });

  it('applies nothing of a request that fails: a good archived with a bad name', async () => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.patch(`/api/lists/${team.list.id}`, { archived: true, name: '' }), 'name');
    expect(await activeLists(team.as.admin, team.board.id)).toMatchObject([{ id: team.list.id, name: 'Todo', archived: false }]);
  });

  it('an archived list takes no new cards, and a card of it is not restored while the board has no open list (400)', async () => {
    const { board, call } = await makeBoardOwner(t);
    const list = (await call('POST', `/api/boards/${board.id}/lists`, { name: 'L' })).json;
    const card = (await call('POST', `/api/lists/${list.id}/cards`, { title: 'c' })).json;
    expect((await call('PATCH', `/api/cards/${card.id}`, { archived: true })).status).toBe(200);
    expect((await call('PATCH', `/api/lists/${list.id}`, { archived: true })).status).toBe(200);
    const add = await call('POST', `/api/lists/${list.id}/cards`, { title: 'new' });
    expect(add.status).toBe(400);
    expect(add.json.error).toMatch(/^list: the list is archived/);
    const restore = await call('PATCH', `/api/cards/${card.id}`, { archived: false });
    expect(restore.status).toBe(400);
    expect(restore.json.error).toMatch(/list is archived/);
  });
});

describe('POST /api/lists/{id}/move', () => {
  it('moves a list within its board (200 with the list); the others shift, 0..n-1', async () => {
    const team = await makeTeam(t);
    const b = await makeList(team.as.admin, team.board.id, 'B');
    await makeList(team.as.admin, team.board.id, 'C');
    const d = await makeList(team.as.admin, team.board.id, 'D');

    const res = await team.as.member.post(`/api/lists/${d.id}/move`, { position: 1 });
    expectStatus(res, 200);
    expectList(res.json());
    expect(res.json()).toMatchObject({ id: d.id, boardId: team.board.id, position: 1 });
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo', 'D', 'B', 'C']);

    expectStatus(await team.as.member.post(`/api/lists/${team.list.id}/move`, { position: 3 }), 200);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['D', 'B', 'C', 'Todo']);

    const same = await team.as.member.post(`/api/lists/${b.id}/move`, { position: 1 });
    expectStatus(same, 200);
    expect(same.json().position).toBe(1);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['D', 'B', 'C', 'Todo']);
  });

  it('refuses a position out of 0..n-1 with 400 naming position, moving nothing', async () => {
    const team = await makeTeam(t);
    const b = await makeList(team.as.admin, team.board.id, 'B');
    for (const position of [2, -1, 1.5, '1']) {
      expectFieldError(await team.as.admin.post(`/api/lists/${b.id}/move`, { position }), 'position');
    }
    expectFieldError(await team.as.admin.post(`/api/lists/${b.id}/move`, {}), 'position');
    expectFieldError(await team.as.admin.post(`/api/lists/${b.id}/move`, { position: 0, name: 'x' }), 'name');
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo', 'B']);
  });

  it('moves a list with its cards to another board the caller may write to', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const target = await makeBoard(t.db, team.member.id);
    const existing = await makeList(team.as.member, target.id, 'Existing');
    const stays = await makeList(team.as.admin, team.board.id, 'Stays');

    const res = await team.as.member.post(`/api/lists/${team.list.id}/move`, { boardId: target.id, position: 0 });
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({ id: team.list.id, boardId: target.id, position: 0, archived: false });

    expect((await activeLists(team.as.member, target.id)).map((l) => l.id)).toEqual([team.list.id, existing.id]);
    expect((await activeLists(team.as.admin, team.board.id)).map((l) => l.id)).toEqual([stays.id]);
    const board = await fetchBoard(team.as.member, target.id);
    expect(board.lists[0].cards.map((c: any) => c.id)).toEqual(team.cards.map((c: any) => c.id));
    for (const card of team.cards) {
      const moved = await team.as.member.get(`/api/cards/${card.id}`);
      expectStatus(moved, 200);
      expect(moved.json()).toMatchObject({ boardId: target.id, listId: team.list.id });
    }
    // The admin of the source board is not on the target board: the list and its cards are out of reach.
    expectError(await team.as.admin.get(`/api/cards/${team.cards[0].id}`), 404);
  });

  it('refuses a target board where the caller is an observer (403) or not a member (404)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const watched = await makeBoard(t.db, team.stranger.id, [{ userId: team.member.id, role: 'observer' }]);
    const foreign = await makeBoard(t.db, team.stranger.id);
    expectError(await team.as.member.post(`/api/lists/${team.list.id}/move`, { boardId: watched.id, position: 0 }), 403);
    expectError(await team.as.member.post(`/api/lists/${team.list.id}/move`, { boardId: foreign.id, position: 0 }), 404);
    expectError(await team.as.member.post(`/api/lists/${team.list.id}/move`, { boardId: 999999, position: 0 }), 404);
    expect((await activeLists(team.as.admin, team.board.id)).map((l) => l.id)).toEqual([team.list.id]);
    expect((await team.as.admin.get(`/api/cards/${team.cards[0].id}`)).json().boardId).toBe(team.board.id);
  });

  it('is refused to an observer (403)', async () => {
    const team = await makeTeam(t);
    await makeList(team.as.admin, team.board.id, 'B');
    expectError(await team.as.observer.post(`/api/lists/${team.list.id}/move`, { position: 1 }), 403);
    expect(names(await activeLists(team.as.admin, team.board.id))).toEqual(['Todo', 'B']);
  });

  it('keeps the cards of a moved list in their order', async () => {
    const team = await makeTeam(t);
    const b = await makeList(team.as.admin, team.board.id, 'B');
    const cards = await makeCards(team.as.admin, b.id, 3);
    expectStatus(await team.as.admin.post(`/api/lists/${b.id}/move`, { position: 0 }), 200);
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.lists[0].id).toBe(b.id);
    expect(board.lists[0].cards.map((c: any) => c.id)).toEqual(cards.map((c: any) => c.id));
  });

  it('to another board bumps its cards\' versions, so a stale If-Match no longer applies', async () => {
    const { user, board, call } = await makeBoardOwner(t);
    const other = await makeBoard(t.db, user.id);
    const list = (await call('POST', `/api/boards/${board.id}/lists`, { name: 'L' })).json;
    const card = (await call('POST', `/api/lists/${list.id}/cards`, { title: 'c' })).json;
    expect((await call('POST', `/api/lists/${list.id}/move`, { position: 0, boardId: other.id })).status).toBe(200);
    const moved = (await call('GET', `/api/cards/${card.id}`)).json;
    expect(moved).toMatchObject({ boardId: other.id, version: card.version + 1 });
  });
});
