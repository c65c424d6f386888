import { describe, expect, it } from 'vitest';
import { generateToken } from '../../src/accounts/credentials/tokens.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** One test (at least) per rule of the seed's Authentication section, through real HTTP. */
const t = useTestApp();

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('rule 1: Authorization: Bearer <tsk_ key>', () => {
  it('lets a key in with the Bearer scheme (any case) and nothing else', async () => {
    const user = await makeUser(t.db);
    const { token } = await makeKey(t.db, user.id);
    expect((await get('/api/boards', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    expect((await get('/api/boards', { authorization: `bearer ${token}` })).statusCode).toBe(200);
    expect((await get('/api/boards', { authorization: `Basic ${token}` })).statusCode).toBe(401);
    expect((await get('/api/boards', { authorization: token })).statusCode).toBe(401);
  });
});

describe('rule 2: a missing or invalid key gives 401', () => {
  it.each([
    ['missing', {}],
    ['empty bearer', { authorization: 'Bearer ' }],
    ['unknown well-formed key', { authorization: `Bearer ${generateToken('tsk_')}` }],
    ['bad checksum', { authorization: `Bearer ${generateToken('tsk_').slice(0, -1)}x` }],
    ['garbage', { authorization: 'Bearer tsk_nope' }],
  ])('%s → 401 {error} with WWW-Authenticate', async (_name, headers) => {
    const res = await get('/api/boards', headers as Record<string, string>);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(Object.keys(res.json())).toEqual(['error']);
  });
});

describe('rule 3: a read key may only GET', () => {
  it('reads with GET (and HEAD) and gets 403 for every other method, before any 404', async () => {
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, user.id);
    const { auth } = await makeKey(t.db, user.id, { permission: 'read' });
    expect((await get('/api/boards', auth)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: `/api/boards/${board.id}`, headers: auth })).statusCode).toBe(200);
    const create = await post('/api/boards', auth, { name: 'x' });
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toMatch(/read-only/);
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/boards/${board.id}`, headers: auth, payload: { name: 'y' } });
    expect(patch.statusCode).toBe(403);
    // A board the key cannot see: still 403 first (the spec's order: 401 → 403 read-only → 404).
    const other = await t.app.inject({ method: 'PATCH', url: '/api/boards/999999', headers: auth, payload: { name: 'y' } });
    expect(other.statusCode).toBe(403);
  });
});

describe('rule 4: a key cannot manage keys or reach administration', () => {
  it('gets 401 on /account/keys, /admin and /auth/me, even a write key of a site admin', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const victim = await makeUser(t.db);
    const { auth, key } = await makeKey(t.db, admin.id, { permission: 'write' });
    expect((await get('/account/keys', auth)).statusCode).toBe(401);
    expect((await post('/account/keys', auth, { name: 'x', expiresIn: 'never' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/account/keys/${key.id}`, headers: auth })).statusCode).toBe(401);
    expect((await post(`/admin/users/${victim.id}/block`, auth)).statusCode).toBe(401);
    expect((await get('/auth/me', auth)).statusCode).toBe(401);
    // The admin's own session can.
    const session = await loginCookie(t.app, admin.email, admin.password);
    expect((await post(`/admin/users/${victim.id}/block`, session)).statusCode).toBe(200);
  });
});

describe('rule 5: at most 20 keys, revocable any time', () => {
  it('refuses the 21st live key with 409; revoked and expired keys do not count', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post('/account/keys', session, { name: `k${i}`, expiresIn: 'never' });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().key.id);
    }
    const extra = await post('/account/keys', session, { name: 'k20', expiresIn: 'never' });
    expect(extra.statusCode).toBe(409);
    expect(extra.json().error).toMatch(/20/);

    expect((await t.app.inject({ method: 'DELETE', url: `/account/keys/${ids[0]}`, headers: session })).statusCode).toBe(204);
    expect((await post('/account/keys', session, { name: 'after revoke', expiresIn: 'never' })).statusCode).toBe(201);

    await t.db.prisma.apiKey.update({ where: { id: ids[1] }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await post('/account/keys', session, { name: 'after expiry', expiresIn: '30d' })).statusCode).toBe(201);
    expect((await get('/account/keys', session)).json().keys).toHaveLength(22);
  });
});

describe('rule 6 and the key lifecycle: a key stops working', () => {
  it('when its owner revokes it (working → stopped), on the next request', async () => {
    const user = await makeUser(t.db);
    const { auth, key } = await makeKey(t.db, user.id);
    const session = await loginCookie(t.app, user.email, user.password);
    expect((await get('/api/boards', auth)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/account/keys/${key.id}`, headers: session })).statusCode).toBe(204);
    expect((await get('/api/boards', auth)).statusCode).toBe(401);
  });

  it('when its expiry is reached (working → stopped)', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id, { expiresAt: new Date(Date.now() + 400) });
    expect((await get('/api/boards', auth)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await get('/api/boards', auth)).statusCode).toBe(401);
  });

  it('when its owner is blocked (working → stopped), and again when unblocked', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const adminSession = await loginCookie(t.app, admin.email, admin.password);
    const userSession = await loginCookie(t.app, user.email, user.password);
    expect((await get('/api/boards', auth)).statusCode).toBe(200);
    expect((await post(`/admin/users/${user.id}/block`, adminSession)).json()).toEqual({ id: user.id, status: 'blocked' });
    const refused = await get('/api/boards', auth);
    expect(refused.statusCode).toBe(401);
    // Said as it is, not "invalid, revoked or expired": the key is fine, its owner is not.
    expect(refused.json()).toEqual({ error: 'authorization: the account that owns this API key is blocked' });
    expect((await get('/auth/me', userSession)).statusCode).toBe(401);
    expect((await post('/auth/login', {}, { email: user.email, password: user.password })).statusCode).toBe(403);
    expect((await post(`/admin/users/${user.id}/unblock`, adminSession)).json()).toEqual({ id: user.id, status: 'active' });
    expect((await get('/api/boards', auth)).statusCode).toBe(200);
  });

  it('when its owner is deleted (working → stopped), for good', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const adminSession = await loginCookie(t.app, admin.email, admin.password);
    expect((await t.app.inject({ method: 'DELETE', url: `/admin/users/${user.id}`, headers: adminSession })).statusCode).toBe(204);
    expect((await get('/api/boards', auth)).statusCode).toBe(401);
    expect((await post('/auth/login', {}, { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await post(`/admin/users/${user.id}/unblock`, adminSession)).statusCode).toBe(404);
  });

  it('limited to chosen boards, reaches none once they are all deleted: never all boards', async () => {
    const user = await makeUser(t.db);
    const chosen = await makeBoard(t.db, user.id);
    const other = await makeBoard(t.db, user.id);
    const { auth } = await makeKey(t.db, user.id, { boardIds: [chosen.id] });
    expect((await get('/api/boards', auth)).json().boards.map((b: { id: number }) => b.id)).toEqual([chosen.id]);
    await t.db.prisma.board.delete({ where: { id: chosen.id } });
    expect((await get('/api/boards', auth)).json()).toEqual({ boards: [] });
    expect((await get(`/api/boards/${other.id}`, auth)).statusCode).toBe(404);
  });
});

describe('rule 7: a key limited to chosen boards', () => {
  it('lists only those boards and gets 404 for any other, as for a board of someone else', async () => {
    const user = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const [a, b, c] = [await makeBoard(t.db, user.id), await makeBoard(t.db, user.id), await makeBoard(t.db, user.id)];
    const theirs = await makeBoard(t.db, stranger.id);
    const { auth } = await makeKey(t.db, user.id, { boardIds: [a.id, c.id] });
    expect((await get('/api/boards', auth)).json().boards.map((x: { id: number }) => x.id)).toEqual([a.id, c.id]);
    expect((await get(`/api/boards/${a.id}`, auth)).statusCode).toBe(200);
    const outside = await get(`/api/boards/${b.id}`, auth);
    const someoneElses = await get(`/api/boards/${theirs.id}`, auth);
    const missing = await get('/api/boards/987654', auth);
    expect([outside.statusCode, someoneElses.statusCode, missing.statusCode]).toEqual([404, 404, 404]);
    expect(outside.json()).toEqual(missing.json());
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/boards/${b.id}`, headers: auth, payload: { name: 'n' } });
    expect(patch.statusCode).toBe(404);
  });

  it('cannot create boards (403)', async () => {
    const user = await makeUser(t.db);
    const a = await makeBoard(t.db, user.id);
    const { auth } = await makeKey(t.db, user.id, { boardIds: [a.id] });
    const res = await post('/api/boards', auth, { name: 'new' });
    expect(res.statusCode).toBe(403);
    const unlimited = await makeKey(t.db, user.id);
    expect((await post('/api/boards', unlimited.auth, { name: 'new' })).statusCode).toBe(201);
  });
});

describe('rule 8: a key acts with its owner\'s current board roles', () => {
  it('gets 403 where the role is insufficient, and loses a board its owner leaves', async () => {
    const owner = await makeUser(t.db);
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, owner.id, [{ userId: user.id, role: 'observer' }]);
    const { auth } = await makeKey(t.db, user.id, { boardIds: [board.id] });
    expect((await get(`/api/boards/${board.id}`, auth)).json().role).toBe('observer');
    const patch = () => t.app.inject({ method: 'PATCH', url: `/api/boards/${board.id}`, headers: auth, payload: { name: 'renamed' } });
    expect((await patch()).statusCode).toBe(403);
    await t.db.prisma.boardMember.update({ where: { boardId_userId: { boardId: board.id, userId: user.id } }, data: { role: 'admin' } });
    expect((await patch()).statusCode).toBe(200);
    await t.db.prisma.boardMember.delete({ where: { boardId_userId: { boardId: board.id, userId: user.id } } });
    expect((await get(`/api/boards/${board.id}`, auth)).statusCode).toBe(404);
    expect((await get('/api/boards', auth)).json()).toEqual({ boards: [] });
  });
});

describe('rule 9: keys of this service only', () => {
  it('refuses answer and workspace tokens on /api with 401', async () => {
    for (const token of [generateToken('ans_'), generateToken('wst_')]) {
      const res = await get('/api/boards', { authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toMatch(/not a task-board API key/);
    }
  });
});

describe('the session cookie on /api', () => {
  it('works like the user\'s own membership, with an Origin check on state-changing requests', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    expect((await get('/api/boards', session)).statusCode).toBe(200);
    const crossSite = await post('/api/boards', { ...session, origin: 'https://evil.example' }, { name: 'x' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error).toMatch(/origin/);
    expect((await post('/api/boards', { ...session, origin: 'http://localhost:80' }, { name: 'x' })).statusCode).toBe(201);
    expect((await post('/api/boards', session, { name: 'no origin header' })).statusCode).toBe(201);
    // GET with a foreign Origin is harmless and allowed.
    expect((await get('/api/boards', { ...session, origin: 'https://evil.example' })).statusCode).toBe(200);
    const form = await t.app.inject({ method: 'POST', url: '/api/boards', headers: { ...session, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' });
    expect(form.statusCode).toBe(415);
  });
});
