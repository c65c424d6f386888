import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithInvitations as createUser } from '../../src/boards/members/sign-up.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ INVITES_PER_DAY: '2' });
});
afterAll(() => t.close());

async function setup() {
  const user = await makeUser(t.db);
  const board = await makeBoard(t.db, user.id);
  const { auth, key } = await makeKey(t.db, user.id);
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, json: res.body ? res.json() : null };
  };
  return { user, board, auth, key, call };
}

describe('archived lists', () => {
  it('take no new cards, and a card of an archived list is not restored on its own (400)', async () => {
    const { board, call } = await setup();
    const list = (await call('POST', `/api/boards/${board.id}/lists`, { name: 'L' })).json;
    const card = (await call('POST', `/api/lists/${list.id}/cards`, { title: 'c' })).json;
    expect((await call('PATCH', `/api/cards/${card.id}`, { archived: true })).status).toBe(200);
    expect((await call('PATCH', `/api/lists/${list.id}`, { archived: true })).status).toBe(200);
    const add = await call('POST', `/api/lists/${list.id}/cards`, { title: 'new' });
    expect(add.status).toBe(400);
    expect(add.json.error).toMatch(/^list: is archived/);
    const restore = await call('PATCH', `/api/cards/${card.id}`, { archived: false });
    expect(restore.status).toBe(400);
    expect(restore.json.error).toMatch(/list is archived/);
  });
});

describe('order of checks for targets', () => {
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

describe('moving a list to another board', () => {
  it('bumps its cards\' versions, so a stale If-Match no longer applies', async () => {
    const { user, board, call } = await setup();
    const other = await makeBoard(t.db, user.id);
    const list = (await call('POST', `/api/boards/${board.id}/lists`, { name: 'L' })).json;
    const card = (await call('POST', `/api/lists/${list.id}/cards`, { title: 'c' })).json;
    expect((await call('POST', `/api/lists/${list.id}/move`, { position: 0, boardId: other.id })).status).toBe(200);
    const moved = (await call('GET', `/api/cards/${card.id}`)).json;
    expect(moved).toMatchObject({ boardId: other.id, version: card.version + 1 });
  });
});

describe('invitations', () => {
  it('keep counting against the daily cap after their board is deleted', async () => {
    const { user, call } = await setup();
    const first = (await call('POST', '/api/boards', { name: 'one' })).json;
    expect((await call('POST', `/api/boards/${first.id}/members`, { email: `a-${user.id}@example.com`, role: 'member' })).status).toBe(202);
    expect((await call('POST', `/api/boards/${first.id}/members`, { email: `b-${user.id}@example.com`, role: 'member' })).status).toBe(202);
    expect((await call('DELETE', `/api/boards/${first.id}`)).status).toBe(204);
    const second = (await call('POST', '/api/boards', { name: 'two' })).json;
    expect((await call('POST', `/api/boards/${second.id}/members`, { email: `c-${user.id}@example.com`, role: 'member' })).status).toBe(429);
  });

  it('become memberships on registration, announced as member.added', async () => {
    const other = await buildTestApp();
    try {
      const user = await makeUser(other.db);
      const board = await makeBoard(other.db, user.id);
      const { auth } = await makeKey(other.db, user.id);
      const email = `invitee-${Date.now()}@example.com`;
      const invited = await other.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: auth, payload: { email, role: 'observer' } });
      expect(invited.statusCode).toBe(202);
      const published: string[] = [];
      other.app.events.subscribe(board.id, (a) => published.push(a.type));
      const invitee = await createUser({ db: other.db.prisma, email, password: 'long enough', name: 'Invitee', events: other.app.events });
      const members = (await other.app.inject({ method: 'GET', url: `/api/boards/${board.id}/members`, headers: auth })).json().members;
      expect(members).toContainEqual({ userId: invitee.id, name: 'Invitee', email, role: 'observer' });
      const activity = (await other.app.inject({ method: 'GET', url: `/api/boards/${board.id}/activity`, headers: auth })).json().activities[0];
      expect(activity).toMatchObject({ type: 'member.added', actor: { userId: invitee.id, name: 'Invitee', keyId: null }, data: { userId: invitee.id } });
      expect(published).toEqual(['member.added']);
    } finally {
      await other.close();
    }
  });
});
