import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WEB_DIST, type WebManifest } from '../../src/web/build.js';
import { CONTENT_SECURITY_POLICY } from '../../src/platform/http/content-security-policy.js';
import { loginCookie, makeKey, makeUser } from '../factories.js';
import { buildTestApp, type TestAppHandle, useTestApp } from '../helper.js';

/** The web app's backend through app.inject: first run, the users list, the page and its assets. */
const t = useTestApp();

type Method = 'GET' | 'POST' | 'DELETE';
const send = (app: TestAppHandle, method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
  app.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('/auth/setup (first run)', () => {
  it('creates exactly one first site admin, even when set-ups race, then refuses with 409', async () => {
    const fresh = await buildTestApp(); // no user at all
    try {
      expect((await send(fresh, 'GET', '/auth/setup')).json()).toEqual({ needed: true });

      // Bad input creates nothing and leaves the site in its first-run state.
      for (const [body, message] of [
        [{ email: 'not-an-email', password: 'long enough' }, /^email: /],
        [{ email: 'a@example.com', password: 'short' }, /^password: must be at least 8 characters$/],
        [{ email: 'a@example.com', password: 'long enough', siteAdmin: false }, /^siteAdmin: unknown field$/],
        [{ password: 'long enough' }, /^email: /],
      ] as const) {
        const res = await send(fresh, 'POST', '/auth/setup', {}, body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error).toMatch(message);
      }
      expect((await send(fresh, 'GET', '/auth/setup')).json()).toEqual({ needed: true });

      const racers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => send(fresh, 'POST', '/auth/setup', {}, { email: `racer${i}@example.com`, password: 'correct horse battery', name: `Racer ${i}` })),
      );
      const statuses = racers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409]);
      const winner = racers.find((r) => r.statusCode === 201)!;
      for (const loser of racers.filter((r) => r.statusCode === 409)) {
        expect(loser.json()).toEqual({ error: 'setup: the site already has users; sign in instead' });
        expect(loser.headers['set-cookie']).toBeUndefined();
      }
      const { user } = winner.json();
      expect(user).toMatchObject({ siteAdmin: true, email: expect.stringMatching(/^racer\d@example\.com$/) });
      expect(await fresh.db.prisma.user.count()).toBe(1);

      // The winner is signed in by the same answer.
      const cookie = String(winner.headers['set-cookie']).split(';')[0]!;
      expect(String(winner.headers['set-cookie'])).toMatch(/HttpOnly/);
      expect((await send(fresh, 'GET', '/auth/me', { cookie })).json()).toEqual({ user });

      expect((await send(fresh, 'GET', '/auth/setup')).json()).toEqual({ needed: false });
      const late = await send(fresh, 'POST', '/auth/setup', {}, { email: 'late@example.com', password: 'correct horse battery' });
      expect(late.statusCode).toBe(409);
      expect(await fresh.db.prisma.user.count()).toBe(1);
    } finally {
      await fresh.close();
    }
    // A fresh embedded database and five argon2 hashes (64 MiB each) at once: on a loaded 2-core
    // machine that alone took over 30 s.
  }, 90_000);

  it('answers needed: false once any user exists, including one made by the CLI', async () => {
    await makeUser(t.db);
    expect((await send(t, 'GET', '/auth/setup')).json()).toEqual({ needed: false });
    expect((await send(t, 'POST', '/auth/setup', {}, { email: 'first@example.com', password: 'correct horse battery' })).statusCode).toBe(409);
  });
});

describe('GET and POST /admin/users', () => {
  it('is for site administrators\' sessions only: 401 without one or with an API key, 403 for others', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const userSession = await loginCookie(t.app, user.email, user.password);
    const adminKey = await makeKey(t.db, admin.id);
    const body = { email: `x-${Date.now()}@example.com`, password: 'correct horse battery' };
    for (const [headers, status] of [
      [{}, 401],
      [adminKey.auth, 401],
      [userSession, 403],
    ] as const) {
      expect((await send(t, 'GET', '/admin/users', headers)).statusCode).toBe(status);
      expect((await send(t, 'POST', '/admin/users', headers, body)).statusCode).toBe(status);
    }
    expect(await t.db.prisma.user.count({ where: { email: body.email } })).toBe(0);
  });

  it('lists every user with status and creation time, deleted ones included', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const session = await loginCookie(t.app, admin.email, admin.password);
    const blocked = await makeUser(t.db);
    const gone = await makeUser(t.db);
    expect((await send(t, 'POST', `/admin/users/${blocked.id}/block`, session)).statusCode).toBe(200);
    expect((await send(t, 'DELETE', `/admin/users/${gone.id}`, session)).statusCode).toBe(204);
    const res = await send(t, 'GET', '/admin/users', session);
    expect(res.statusCode).toBe(200);
    const users = res.json().users as Record<string, unknown>[];
    const byId = new Map(users.map((u) => [u.id, u]));
    expect(byId.get(admin.id)).toEqual({ id: admin.id, email: admin.email, name: admin.name, siteAdmin: true, status: 'active', createdAt: expect.any(String), passwordSet: true });
    expect(byId.get(blocked.id)).toMatchObject({ status: 'blocked' });
    expect(byId.get(gone.id)).toMatchObject({ status: 'deleted', siteAdmin: false });
    expect(byId.get(gone.id)!.email).not.toBe(gone.email); // the address is freed
    for (const u of users) expect(Object.keys(u).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'passwordSet', 'siteAdmin', 'status']);
    expect(JSON.stringify(users)).not.toMatch(/passwordHash|\$argon2/);
  });

  it('creates a user who can sign in (201); 409 for a taken address in any case; 400 for bad input', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const session = await loginCookie(t.app, admin.email, admin.password);
    const email = `new-${Date.now()}@example.com`;
    const created = await send(t, 'POST', '/admin/users', session, { email: `  ${email.toUpperCase()} `, password: 'correct horse battery', name: 'New Person' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ user: { id: expect.any(Number), email, name: 'New Person', siteAdmin: false, status: 'active', createdAt: expect.any(String), passwordSet: true }, setupLink: null });
    expect((await send(t, 'POST', '/auth/login', {}, { email, password: 'correct horse battery' })).statusCode).toBe(200);

    const second = await send(t, 'POST', '/admin/users', session, { email: `ADMIN2-${email}`, password: 'correct horse battery', siteAdmin: true });
    expect(second.json().user).toMatchObject({ siteAdmin: true, name: `admin2-${email}`.split('@')[0] });

    const duplicate = await send(t, 'POST', '/admin/users', session, { email: email.toUpperCase(), password: 'another password' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'email: already registered' });

    for (const [body, message] of [
      [{ email: 'nope', password: 'correct horse battery' }, /^email: must be an e-mail address$/],
      [{ email: 'ok@example.com', password: 'short' }, /^password: must be at least 8 characters$/],
      [{ email: 'ok@example.com', password: 'correct horse battery', name: '' }, /^name: must be 1-100 characters$/],
      [{ email: 'ok@example.com', password: 'correct horse battery', siteAdmin: 'yes' }, /^siteAdmin: /],
      [{ email: 'ok@example.com', password: 'correct horse battery', role: 'admin' }, /^role: unknown field$/],
    ] as const) {
      const res = await send(t, 'POST', '/admin/users', session, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect(await t.db.prisma.user.count({ where: { email: 'ok@example.com' } })).toBe(0);
  });

  it('refuses a cross-site POST from a signed-in admin (403): the session cookie alone is not enough', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const session = await loginCookie(t.app, admin.email, admin.password);
    const res = await send(t, 'POST', '/admin/users', { ...session, origin: 'https://evil.example' }, { email: 'csrf@example.com', password: 'correct horse battery' });
    expect(res.statusCode).toBe(403);
    expect(await t.db.prisma.user.count({ where: { email: 'csrf@example.com' } })).toBe(0);
  });
});

describe('the page and its assets', () => {
  const manifest = () => JSON.parse(readFileSync(path.join(WEB_DIST, 'manifest.json'), 'utf8')) as WebManifest;

  it.each(['/', '/signin', '/setup', '/boards', '/boards/42', '/settings/keys', '/settings/apps', '/site-admin'])(
    'serves %s as the app\'s page under a strict Content-Security-Policy',
    async (url) => {
      const res = await send(t, 'GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-cache');
      const { script, style } = manifest();
      expect(res.body).toContain(`<script type="module" src="/assets/${script}"></script>`);
      expect(res.body).toContain(`<link rel="stylesheet" href="/assets/${style}">`);
      // Nothing inline for the policy to have to allow.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    },
  );

  it('has a policy that allows no inline script, no other origin and no framing', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|https?:|\*/);
  });

  it('does not serve the page at paths the app has no page for', async () => {
    for (const url of ['/nope', '/boardsx', '/settingsx']) expect((await send(t, 'GET', url)).statusCode, url).toBe(404);
  });

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['identity', undefined, (b: Buffer) => b],
    [undefined, undefined, (b: Buffer) => b],
  ] as const)('serves each hashed asset forever-cacheable, compressed for Accept-Encoding %s', async (accept, encoding, decode) => {
    const m = manifest();
    for (const [name, type] of [
      [m.script, 'text/javascript; charset=utf-8'],
      [m.style, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/assets/${name}`, headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['vary']).toBe('accept-encoding');
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(decode(res.rawPayload).equals(readFileSync(path.join(WEB_DIST, name)))).toBe(true);
    }
  });

  it('ships compressed assets much smaller than the originals', async () => {
    const { script } = manifest();
    const plain = (await send(t, 'GET', `/assets/${script}`)).rawPayload.length;
    const br = (await send(t, 'GET', `/assets/${script}`, { 'accept-encoding': 'br' })).rawPayload.length;
    expect(br).toBeLessThan(plain / 2);
  });

  it.each([
    'app-AAAAAAAAAAAA.js', // well-formed, not built
    'app-AAAAAAAAAAAA.css',
    'manifest.json',
    'app-short.js',
    'app-ZZZZZZZZZZZZ.js.br',
    '..%2Fmanifest.json',
    '..%2F..%2Fpackage.json',
    'app-AAAAAAAAAAAA.map',
  ])('answers 404 for an asset named %s', async (name) => {
    const res = await send(t, 'GET', `/assets/${name}`, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(404);
    expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/immutable/);
  });
});
