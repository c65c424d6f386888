import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isWellFormedToken } from '../../src/accounts/credentials/tokens.js';
import { touchLastUsed } from '../../src/accounts/keys/touch-last-used.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, useTestApp } from '../helper.js';

const t = useTestApp();

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('POST /auth/login, /auth/logout, GET /auth/me', () => {
  it('logs in case-insensitively with an HttpOnly, SameSite=Strict cookie that /auth/me and logout honour', async () => {
    const user = await makeUser(t.db, { email: 'Mixed.Case@Example.com' });
    const res = await inject('POST', '/auth/login', {}, { email: 'mixed.case@EXAMPLE.com', password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.id, email: 'mixed.case@example.com', name: user.name, siteAdmin: false, timeZone: null, hour12: null } });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // plain http here; Secure when https
    const cookie = setCookie.split(';')[0]!;
    expect((await inject('GET', '/auth/me', { cookie })).json().user.id).toBe(user.id);
    expect((await inject('POST', '/auth/logout', { cookie })).statusCode).toBe(204);
    expect((await inject('GET', '/auth/me', { cookie })).statusCode).toBe(401);
    expect((await inject('GET', '/api/boards', { cookie })).statusCode).toBe(401);
  });

  it('marks the cookie Secure behind https', async () => {
    const user = await makeUser(t.db);
    const https = await buildTestApp({ PUBLIC_BASE_URL: 'https://boards.example.com' });
    try {
      await https.db.prisma.user.create({ data: { email: user.email, name: 'x', passwordHash: (await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash } });
      const res = await https.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: user.password } });
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await https.close();
    }
  });

  it('answers wrong credentials with 401 and a blocked user with 403', async () => {
    const user = await makeUser(t.db);
    expect((await inject('POST', '/auth/login', {}, { email: user.email, password: 'wrong password' })).statusCode).toBe(401);
    expect((await inject('POST', '/auth/login', {}, { email: 'nobody@example.com', password: 'whatever1' })).statusCode).toBe(401);
    await t.db.prisma.user.update({ where: { id: user.id }, data: { status: 'blocked' } });
    expect((await inject('POST', '/auth/login', {}, { email: user.email, password: user.password })).statusCode).toBe(403);
  });

  it('throttles repeated failures per e-mail with 429 and Retry-After, even with the right password', async () => {
    const user = await makeUser(t.db);
    for (let i = 0; i < 5; i++) {
      expect((await inject('POST', '/auth/login', {}, { email: user.email, password: `guess-${i}` })).statusCode).toBe(401);
    }
    const blocked = await inject('POST', '/auth/login', {}, { email: user.email, password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Object.keys(blocked.json())).toEqual(['error']);
  });

  // 21 password checks (argon2, made slow on purpose): over 60 s beside a loaded CI run.
  it('throttles repeated failures from one address across e-mails', { timeout: 240_000 }, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' }; // ignored without TRUST_PROXY: all from 127.0.0.1
    const app = await buildTestApp();
    try {
      let last = 0;
      for (let i = 0; i < 21; i++) {
        last = (await app.app.inject({ method: 'POST', url: '/auth/login', headers, payload: { email: `n${i}@example.com`, password: 'wrongpass' } })).statusCode;
      }
      expect(last).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('refuses a cross-origin login with 403 and sets no cookie', async () => {
    const user = await makeUser(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { origin: 'https://evil.example' }, payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('validates the login body', async () => {
    const res = await inject('POST', '/auth/login', {}, { email: 'not-an-email', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^email: /);
  });
});

describe('/account/keys', () => {
  it('creates a key whose token is shown once and stored only as a hash with a display prefix', async () => {
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, user.id);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await inject('POST', '/account/keys', session, { name: 'nightly job', permission: 'write', boardIds: [board.id], expiresIn: '90d' });
    expect(res.statusCode).toBe(201);
    const { key, token } = res.json();
    expect(token).toMatch(/^tsk_[0-9A-Za-z]{46}$/);
    expect(isWellFormedToken(token, 'tsk_')).toBe(true);
    expect(key).toMatchObject({ name: 'nightly job', permission: 'write', boards: [board.id], prefix: token.slice(0, 10), lastUsedAt: null, revokedAt: null });
    const days = (Date.parse(key.expiresAt) - Date.parse(key.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(90);

    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token.slice(10));
    const listed = (await inject('GET', '/account/keys', session)).json();
    expect(listed.keys[0]).toEqual(key);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('defaults to read permission on all boards', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const { key } = (await inject('POST', '/account/keys', session, { name: 'defaults', expiresIn: 'never' })).json();
    expect(key).toMatchObject({ permission: 'read', boards: null, expiresAt: null });
  });

  it.each([
    ['a 61-character name', { name: 'x'.repeat(61), expiresIn: 'never' }, /^name: must be 1-60 characters$/],
    ['an empty name', { name: '  ', expiresIn: 'never' }, /^name: /],
    ['an unknown expiry', { name: 'k', expiresIn: '2d' }, /^expiresIn: must be one of never, 30d, 90d, 1y$/],
    ['a missing expiry', { name: 'k' }, /^expiresIn: /],
    ['an unknown permission', { name: 'k', expiresIn: 'never', permission: 'admin' }, /^permission: /],
    ['51 boards', { name: 'k', expiresIn: 'never', boardIds: Array.from({ length: 51 }, (_, i) => i + 1) }, /^boardIds: at most 50 boards$/],
    ['an unknown field', { name: 'k', expiresIn: 'never', scope: 'all' }, /^scope: unknown field$/],
  ])('refuses %s with 400 naming the field, creating nothing', async (_name, body, message) => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await inject('POST', '/account/keys', session, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect(await t.db.prisma.apiKey.count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses a board the owner is not a member of with 400, creating nothing', async () => {
    const user = await makeUser(t.db);
    const other = await makeUser(t.db);
    const mine = await makeBoard(t.db, user.id);
    const theirs = await makeBoard(t.db, other.id);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await inject('POST', '/account/keys', session, { name: 'k', expiresIn: 'never', boardIds: [mine.id, theirs.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`boardIds: board ${theirs.id} is not one of your boards`);
    expect(await t.db.prisma.apiKey.count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses an empty board list for a key (it would reach nothing)', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await t.app.inject({ method: 'POST', url: '/account/keys', headers: session, payload: { name: 'k', expiresIn: 'never', boardIds: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^boardIds: choose at least one board/);
  });

  it('revokes only the caller\'s own keys (404 for another\'s), idempotently', async () => {
    const user = await makeUser(t.db);
    const other = await makeUser(t.db);
    const theirs = await makeKey(t.db, other.id);
    const mine = await makeKey(t.db, user.id);
    const session = await loginCookie(t.app, user.email, user.password);
    expect((await inject('DELETE', `/account/keys/${theirs.key.id}`, session)).statusCode).toBe(404);
    expect((await inject('GET', '/api/boards', theirs.auth)).statusCode).toBe(200);
    expect((await inject('DELETE', `/account/keys/${mine.key.id}`, session)).statusCode).toBe(204);
    expect((await inject('DELETE', `/account/keys/${mine.key.id}`, session)).statusCode).toBe(204);
    const listed = (await inject('GET', '/account/keys', session)).json().keys;
    expect(listed[0].revokedAt).toEqual(expect.any(String));
  });

  it('records lastUsedAt to the minute (never before the key was created), with one write per minute at most', async () => {
    const user = await makeUser(t.db);
    const { auth, key } = await makeKey(t.db, user.id);
    for (let i = 0; i < 5; i++) expect((await inject('GET', '/api/boards', auth)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100)); // the write is off the request's path
    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.lastUsedAt).not.toBeNull();
    const at = row.lastUsedAt!.getTime();
    // The minute of use, or the creation instant when the key was made in that same minute.
    expect(at % 60_000 === 0 || at === row.createdAt.getTime()).toBe(true);
    expect(at).toBeGreaterThanOrEqual(row.createdAt.getTime());
    expect(Date.now() - at).toBeLessThan(61_000);
    const listed = (await inject('GET', '/account/keys', await loginCookie(t.app, user.email, user.password))).json().keys;
    expect(Date.parse(listed[0].lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(listed[0].createdAt));
  });

  it('never writes a lastUsedAt earlier than the creation, even within its first minute', () => {
    const created = Date.UTC(2026, 10, 24, 12, 0, 40);
    const writes: Date[] = [];
    const entry = { lastUsedAt: null, notBefore: created };
    touchLastUsed(entry, created + 5_000, async (at) => writes.push(at));
    expect(writes).toEqual([new Date(created)]);
    touchLastUsed(entry, created + 65_000, async (at) => writes.push(at));
    expect(writes[1]).toEqual(new Date(Date.UTC(2026, 10, 24, 12, 1, 0)));
  });
});

describe('/admin/users', () => {
  it('is for site administrators only (403 otherwise) and 404 for unknown users', async () => {
    const user = await makeUser(t.db);
    const victim = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    expect((await inject('POST', `/admin/users/${victim.id}/block`, session)).statusCode).toBe(403);
    expect((await inject('DELETE', `/admin/users/${victim.id}`, session)).statusCode).toBe(403);
    const admin = await makeUser(t.db, { siteAdmin: true });
    const adminSession = await loginCookie(t.app, admin.email, admin.password);
    expect((await inject('POST', '/admin/users/999999/block', adminSession)).statusCode).toBe(404);
    expect((await inject('POST', '/admin/users/abc/block', adminSession)).statusCode).toBe(400);
  });
});

describe('logs', () => {
  it('never contain a token, a password or a session cookie', async () => {
    const user = await makeUser(t.db, { password: 'pw-in-logs-canary-1' });
    const login = await inject('POST', '/auth/login', {}, { email: user.email, password: user.password });
    const cookieValue = String(login.headers['set-cookie']).split(';')[0]!.split('=')[1]!;
    const { token } = (await inject('POST', '/account/keys', { cookie: `tb_session=${cookieValue}` }, { name: 'k', expiresIn: 'never' })).json();
    await inject('GET', '/api/boards', { authorization: `Bearer ${token}` });
    await inject('POST', '/auth/login', {}, { email: user.email, password: 'wrong-canary-2' });
    await inject('GET', '/api/boards', { authorization: `Bearer ${token}x` });
    const all = t.logs.raw.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [token, token.slice(4), user.password, 'wrong-canary-2', cookieValue]) expect(all).not.toContain(secret);
  });
});
