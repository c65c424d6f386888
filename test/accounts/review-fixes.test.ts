import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheCredential, cachedCredential, credentialGeneration, forgetCredentials } from '../../src/accounts/credential-cache.js';
import { adminSocketPath, startAdminSocket } from '../../src/cli/admin-socket.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('client mistakes are 4xx, never 500', () => {
  it('answers ids beyond 32 bits with 400', async () => {
    const user = await makeUser(t.db, { siteAdmin: true });
    const { auth } = await makeKey(t.db, user.id);
    const session = await loginCookie(t.app, user.email, user.password);
    for (const [method, url, headers, payload] of [
      ['GET', '/api/boards/2147483648', auth],
      ['GET', '/api/boards/99999999999999999999', auth],
      ['DELETE', '/account/keys/2147483648', session],
      ['POST', '/admin/users/2147483648/block', session],
      ['POST', '/account/keys', session, { name: 'k', expiresIn: 'never', boardIds: [2147483648] }],
    ] as const) {
      const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('answers text with NUL characters with 400 naming the field', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/boards', headers: auth, payload: { name: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('name: must not contain NUL characters');
  });

  it('names the fix in a 415', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/boards', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'x' });
    expect(res.json()).toEqual({ error: 'content-type: not supported here; send application/json' });
  });

  it('refuses an empty board list for a key (it would reach nothing)', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await t.app.inject({ method: 'POST', url: '/account/keys', headers: session, payload: { name: 'k', expiresIn: 'never', boardIds: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^boardIds: choose at least one board/);
  });
});

describe('bodiless requests', () => {
  it('accept an empty JSON body and refuse one with fields', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const victim = await makeUser(t.db);
    const session = await loginCookie(t.app, admin.email, admin.password);
    const json = { ...session, 'content-type': 'application/json' };
    expect((await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/block`, headers: json, payload: '' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/unblock`, headers: json, payload: '{}' })).statusCode).toBe(200);
    const withFields = await t.app.inject({ method: 'POST', url: `/admin/users/${victim.id}/block`, headers: json, payload: '{"x":1}' });
    expect(withFields.statusCode).toBe(400);
    expect(withFields.json()).toEqual({ error: 'body: this endpoint takes no body' });
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: json, payload: '' })).statusCode).toBe(204);
  });
});

describe('login', () => {
  it('counts guesses sent all at once against the limit', async () => {
    const user = await makeUser(t.db);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: `guess-${i}` } }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
  });

  it('refuses a cross-origin login with 403 and sets no cookie', async () => {
    const user = await makeUser(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { origin: 'https://evil.example' }, payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the credential cache', () => {
  it('does not store an answer read before a forget (a revoke racing a lookup)', () => {
    const db = {};
    const before = credentialGeneration(db);
    forgetCredentials(db); // a revoke lands while the lookup is in the database
    cacheCredential(db, 'key:x', { live: true }, before);
    expect(cachedCredential(db, 'key:x')).toBeUndefined();
    cacheCredential(db, 'key:x', { live: false }, credentialGeneration(db));
    expect(cachedCredential(db, 'key:x')).toEqual({ live: false });
  });
});

describe('the admin socket', () => {
  it('is owner-only and runs one command per connection', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tb-sock-'));
    const socket = await startAdminSocket({ db: t.db, config: { ...t.config, dataDir } });
    try {
      expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      const user = await makeUser(t.db);
      await makeBoard(t.db, user.id);
      const answer = await new Promise<string>((resolve) => {
        const c = net.connect(adminSocketPath(dataDir));
        let out = '';
        c.on('connect', () => {
          c.write(`${JSON.stringify({ argv: ['key', 'create', '--email', user.email, '--name', 'one'] })}\n`);
          c.write(`${JSON.stringify({ argv: ['key', 'create', '--email', user.email, '--name', 'two'] })}\n`);
        });
        c.on('data', (d) => (out += d));
        c.on('end', () => resolve(out));
      });
      expect(JSON.parse(answer)).toMatchObject({ exitCode: 0, body: { token: expect.stringMatching(/^tsk_/) } });
      await new Promise((r) => setTimeout(r, 50));
      expect((await t.db.prisma.apiKey.findMany({ where: { userId: user.id } })).map((k) => k.name)).toEqual(['one']);
    } finally {
      await socket!.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
