import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  call,
  client,
  expectError,
  expectStatus,
  fetchBoard,
  makeList,
  makeTeam,
  type Res,
  routesOf,
} from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/**
 * Who reaches what, and in which order the checks answer (SPEC §3 Conventions and Roles):
 * 401 (credential) → 403 (read-only key, non-GET) → 404 (missing or outside reach) → 403 (role) → 409.
 */
const t = useTestApp(BOARD_TEST_ENV);

const MISSING = 999_999;
/** A 404 must not tell "exists but not yours" from "does not exist": same body, ids aside. */
const shape = (res: Res) => ({ status: res.statusCode, error: String(res.json().error).replace(/\d+/g, 'N') });

/** A team with a second list and one card, and the routes that name them. */
async function fixture() {
  const team = await makeTeam(t, { cards: 1 });
  const second = await makeList(team.as.admin, team.board.id, 'Second');
  const routes = routesOf({
    boardId: team.board.id,
    listId: team.list.id,
    cardId: team.cards[0].id,
    // The admin: nobody but an admin may change them, and nobody is asking to leave.
    userId: team.admin.id,
    targetListId: second.id,
  });
  return { ...team, second, routes };
}

/** What the board looks like to its admin, to show that refused requests changed nothing. */
async function snapshot(team: Awaited<ReturnType<typeof fixture>>) {
  const board = await fetchBoard(team.as.admin, team.board.id);
  const card = (await team.as.admin.get(`/api/cards/${team.cards[0].id}`)).json();
  return { board, card };
}

describe('401: no credential', () => {
  it('answers 401 {error} on every route, whether the board exists or not', async () => {
    const team = await fixture();
    const missing = routesOf({ boardId: MISSING, listId: MISSING, cardId: MISSING, userId: MISSING, targetListId: MISSING });
    for (const route of [...team.routes, ...missing, { method: 'GET' as const, url: '/api/boards' }, { method: 'POST' as const, url: '/api/boards', payload: { name: 'x' } }]) {
      const res = await call(t.app, route, {});
      expectError(res, 401);
    }
  });

  it('answers 401 for an invalid key even where a read-only key would get 403', async () => {
    const team = await fixture();
    const res = await call(t.app, team.routes.find((r) => r.method === 'PATCH')!, { authorization: 'Bearer tsk_not-a-real-key' });
    expectError(res, 401);
  });
});

describe('403: a read-only key', () => {
  it('reads with GET and gets 403 on every other method, and nothing changes', async () => {
    const team = await fixture();
    const { auth } = await makeKey(t.db, team.admin.id, { permission: 'read' });
    const before = await snapshot(team);
    for (const route of team.routes) {
      const res = await call(t.app, route, auth);
      if (route.method === 'GET') expectStatus(res, 200);
      else expectError(res, 403, /read-only/);
    }
    expectError(await call(t.app, { method: 'POST', url: '/api/boards', payload: { name: 'x' } }, auth), 403);
    expect(await snapshot(team)).toEqual(before);
  });

  it('gets 403 before 404: on ids that do not exist or are out of its reach', async () => {
    const team = await fixture();
    const stranger = await makeKey(t.db, team.stranger.id, { permission: 'read' });
    const missing = routesOf({ boardId: MISSING, listId: MISSING, cardId: MISSING, userId: MISSING, targetListId: MISSING });
    for (const route of [...missing, ...team.routes].filter((r) => r.method !== 'GET')) {
      expectError(await call(t.app, route, stranger.auth), 403, /read-only/);
    }
  });
});

describe('404: a board out of reach is indistinguishable from a missing one', () => {
  it('a user who is not a member gets 404 on every route of the board, its lists and its cards', async () => {
    const team = await fixture();
    // The stranger's own board and list: a target they could write to, so only the source is out of reach.
    const own = await makeBoard(t.db, team.stranger.id);
    const ownList = await makeList(team.as.stranger, own.id, 'Mine');
    const hidden = routesOf({ boardId: team.board.id, listId: team.list.id, cardId: team.cards[0].id, userId: team.admin.id, targetListId: ownList.id });
    const missing = routesOf({ boardId: MISSING, listId: MISSING, cardId: MISSING, userId: MISSING, targetListId: ownList.id });
    const before = await snapshot(team);
    for (const [i, route] of hidden.entries()) {
      const res = await call(t.app, route, team.keys.stranger.auth);
      expectError(res, 404);
      const same = await call(t.app, missing[i]!, team.keys.stranger.auth);
      expect(shape(res), `${route.method} ${route.url}`).toEqual(shape(same));
    }
    expect(await snapshot(team)).toEqual(before);
  });

  it('a key limited to other boards gets 404 on every route of this one, though its owner is the admin', async () => {
    const team = await fixture();
    const elsewhere = await makeBoard(t.db, team.admin.id);
    const elsewhereList = await makeList(team.as.admin, elsewhere.id, 'Elsewhere');
    const limited = await makeKey(t.db, team.admin.id, { boardIds: [elsewhere.id] });
    const hidden = routesOf({ boardId: team.board.id, listId: team.list.id, cardId: team.cards[0].id, userId: team.admin.id, targetListId: elsewhereList.id });
    const before = await snapshot(team);
    for (const route of hidden) {
      expectError(await call(t.app, route, limited.auth), 404);
    }
    expect(await snapshot(team)).toEqual(before);
    // The same key works on its own board.
    expectStatus(await client(t.app, limited.auth).get(`/api/boards/${elsewhere.id}`), 200);
  });

  it('a member who is removed loses the board at once (404)', async () => {
    const team = await fixture();
    expectStatus(await team.as.member.get(`/api/boards/${team.board.id}`), 200);
    expectStatus(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`), 204);
    expectError(await team.as.member.get(`/api/boards/${team.board.id}`), 404);
    expectError(await team.as.member.get(`/api/cards/${team.cards[0].id}`), 404);
    expectError(await team.as.member.patch(`/api/lists/${team.list.id}`, { name: 'x' }), 404);
  });
});

describe('403: roles', () => {
  it('an observer reads everything and gets 403 on every write, changing nothing', async () => {
    const team = await fixture();
    const before = await snapshot(team);
    for (const route of team.routes) {
      const res = await call(t.app, route, team.keys.observer.auth);
      if (route.method === 'GET') expectStatus(res, 200);
      else expectError(res, 403);
    }
    expect(await snapshot(team)).toEqual(before);
  });

  it('a member gets 403 on board settings, board deletion, member management and card deletion', async () => {
    const team = await fixture();
    const adminOnly = team.routes.filter(
      (r) =>
        (r.url === `/api/boards/${team.board.id}` && r.method !== 'GET') ||
        (r.url.includes('/members') && r.method !== 'GET') ||
        (r.url === `/api/cards/${team.cards[0].id}` && r.method === 'DELETE'),
    );
    expect(adminOnly).toHaveLength(6);
    const before = await snapshot(team);
    for (const route of adminOnly) {
      expectError(await call(t.app, route, team.keys.member.auth), 403);
    }
    expect(await snapshot(team)).toEqual(before);
  });
});

describe('the order of checks', () => {
  it('404 comes before the role check: a non-member gets 404 even where a member would get 403', async () => {
    const team = await fixture();
    expectError(await team.as.stranger.del(`/api/cards/${team.cards[0].id}`), 404);
    expectError(await team.as.stranger.patch(`/api/boards/${team.board.id}`, { name: 'x' }), 404);
    expectError(await team.as.member.del(`/api/cards/${team.cards[0].id}`), 403);
  });

  it('the role check comes before conflicts: 403, not 409', async () => {
    const team = await fixture();
    const card = team.cards[0];
    const stale = { 'if-match': `"${card.version - 1}"` };
    expectError(await team.as.observer.patch(`/api/cards/${card.id}`, { title: 'x' }, stale), 403);
    expectError(await team.as.observer.post(`/api/cards/${card.id}/move`, { listId: team.second.id, position: 0 }, stale), 403);
    expectError(await team.as.member.del(`/api/cards/${card.id}`, stale), 403);
    // Demoting the board's only admin is a conflict, but a member may not manage members at all.
    expectError(await team.as.member.patch(`/api/boards/${team.board.id}/members/${team.admin.id}`, { role: 'member' }), 403);
    expectError(await team.as.observer.post(`/api/boards/${team.board.id}/members`, { email: team.member.email, role: 'member' }), 403);
  });

  it('404 comes before conflicts: a stale version on a card out of reach is 404', async () => {
    const team = await fixture();
    const card = team.cards[0];
    expectError(await team.as.stranger.patch(`/api/cards/${card.id}`, { title: 'x' }, { 'if-match': `"${card.version - 1}"` }), 404);
  });

  it('answers 404 for a missing target before 403 for the role', async () => {
    const owner = await makeUser(t.db);
    const observer = await makeUser(t.db);
    const board = await makeBoard(t.db, owner.id, [{ userId: observer.id, role: 'observer' }]);
    const list = await t.db.prisma.list.create({ data: { boardId: board.id, name: 'L', position: 0 } });
    const card = await t.db.prisma.card.create({ data: { boardId: board.id, listId: list.id, title: 'c', position: 0 } });
    const { auth } = await makeKey(t.db, observer.id);
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: auth, payload });
    expect((await post(`/api/cards/${card.id}/move`, { listId: 999999 })).statusCode).toBe(404);
    expect((await post(`/api/cards/${card.id}/copy`, { listId: 999999 })).statusCode).toBe(404);
    expect((await post(`/api/lists/${list.id}/move`, { position: 0, boardId: 999999 })).statusCode).toBe(404);
    expect((await post(`/api/cards/${card.id}/move`, { listId: list.id })).statusCode).toBe(403);
  });
});

describe('tb_board_role (sql/board-role.sql), the one definition of reach', () => {
  it("answers a member's role, and nothing outside a limited key's boards, a NULL among them included", async () => {
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, user.id);
    const role = async (boardIds: (number | null)[] | null) =>
      (await t.db.prisma.$queryRaw<{ role: string | null }[]>`SELECT tb_board_role(${board.id}::int, ${user.id}::int, ${boardIds}::int[]) AS role`)[0]?.role;
    expect(await role(null)).toBe('admin');
    expect(await role([board.id])).toBe('admin');
    expect(await role([board.id, null])).toBe('admin');
    expect(await role([])).toBeNull();
    expect(await role([MISSING])).toBeNull();
    expect(await role([MISSING, null])).toBeNull();
    expect(await role([null])).toBeNull();
  });
});
