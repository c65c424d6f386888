import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/**
 * Links are credentials: a token read from the request log was accepted by POST /auth/join/<token>
 * and signed in as its user (#31). The log holds the path with secret segments redacted.
 */
const t = useTestApp({ LOG_LEVEL: 'trace' });

/**
 * What this test takes for a secret path parameter, on its own terms (not the server's rule): a
 * parameter named like a secret (an OAuth interaction's uid too), or the last segment of a route about joining, invite links,
 * set-up, resets, unsubscribing or confirming. A new route of that kind fails here until it is
 * declared (`config.secretParams`) or named so.
 */
const SECRET_NAME = /token|secret|code|password|signature|nonce|otp|link|^uid$/i;
const SECRET_ROUTE = /\/(join|invite|setup|set-up|reset\w*|unsubscribe|confirm\w*|verify\w*|magic\w*|email-change\w*)\/(:\w+|\*)$/i;
const looksSecret = (url: string, param: string) =>
  SECRET_NAME.test(param) || (SECRET_ROUTE.test(url) && url.endsWith(param === '*' ? '*' : `:${param}`));

describe('the request log', () => {
  it('redacts every route parameter that looks like a secret (walks every registered route)', async () => {
    const routes = t.app.requestLogRoutes;
    expect(routes.length).toBeGreaterThan(50);
    const checked: string[] = [];
    for (const route of routes) {
      const secretOnes = route.params.filter((p) => looksSecret(route.url, p));
      if (secretOnes.length === 0) continue;
      const markers = new Map(route.params.map((p) => [p, `zz${randomBytes(12).toString('hex')}`]));
      const url = route.url.replace(/:(\w+)(?:\([^)]*\))?|\*/g, (_m, name: string | undefined) => markers.get(name ?? '*')!);
      const method = (Array.isArray(route.method) ? route.method[0] : route.method) as 'GET';
      t.logs.raw.length = 0;
      await t.app.inject({ method, url });
      const line = t.logs.lines.find((l) => l.msg === 'request');
      expect(line, `${method} ${route.url}: no request log line`).toBeDefined();
      for (const p of secretOnes) {
        expect(t.logs.raw.join('\n'), `${method} ${route.url}: "${p}" is in the log`).not.toContain(markers.get(p));
        expect(route.secret, route.url).toContain(p);
      }
      expect(line!.path, route.url).toContain('[redacted]');
      checked.push(`${method} ${route.url}`);
    }
    // The routes known today are among them (a walk that checks nothing proves nothing).
    expect(checked).toEqual(expect.arrayContaining(['GET /auth/join/:token', 'POST /auth/join/:token', 'GET /join/*', 'GET /oauth/consent/:uid', 'POST /oauth/consent/:uid']));
  });

  it('holds none of the links a run of invitations and set-ups created, used or not', async () => {
    t.logs.raw.length = 0;
    const headers = { 'user-agent': 'TestBrowser/1.0' };
    const secrets: string[] = [];
    const admin = await makeUser(t.db, { siteAdmin: true });
    const { cookie } = await loginCookie(t.app, admin.email, admin.password);
    const board = await makeBoard(t.db, admin.id);
    for (let i = 0; i < 3; i++) {
      // An invitation of an address without an account: its link is inv_….
      const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: { ...headers, cookie }, payload: { email: `invitee-${i}-${Date.now()}@example.com`, role: 'member' } });
      expect(invited.statusCode, invited.body).toBe(202);
      const invitation = (invited.json().invitation.url as string).split('/join/')[1]!;
      // A user made by a site admin without a password: its link is set_….
      const created = await t.app.inject({ method: 'POST', url: '/admin/users', headers: { ...headers, cookie }, payload: { email: `setup-${i}-${Date.now()}@example.com` } });
      expect(created.statusCode, created.body).toBe(201);
      const setup = (created.json().setupLink.url as string).split('/join/')[1]!;
      secrets.push(invitation, setup);
      expect(invitation).toMatch(/^inv_/);
      expect(setup).toMatch(/^set_/);
      for (const token of [invitation, setup]) {
        // The page, what the link opens, a mistake, then the link used: each a request log line.
        expect((await t.app.inject({ method: 'GET', url: `/join/${token}`, headers })).statusCode).toBeLessThan(500);
        expect((await t.app.inject({ method: 'GET', url: `/auth/join/${token}`, headers })).statusCode).toBe(200);
        expect((await t.app.inject({ method: 'POST', url: `/auth/join/${token}`, headers, payload: { name: 'N', password: 'short' } })).statusCode).toBe(400);
        expect((await t.app.inject({ method: 'POST', url: `/auth/join/${token}`, headers, payload: { name: `Joiner ${i}`, password: 'long enough password' } })).statusCode).toBe(201);
        // Used up now; and a mistyped route still carries it.
        expect((await t.app.inject({ method: 'GET', url: `/auth/join/${token}`, headers })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: `/auth/joins/${token}/x`, headers })).statusCode).toBe(404);
      }
    }
    const log = t.logs.raw.join('\n');
    const requestLines = t.logs.lines.filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThanOrEqual(3 * (2 + 2 * 6));
    expect(requestLines.some((l) => l.path === '/auth/join/[redacted]' && l.route === '/auth/join/:token')).toBe(true);
    expect(requestLines.some((l) => l.path === '/join/[redacted]')).toBe(true);
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      // Nor the part after the prefix: a token is its random characters.
      expect(log).not.toContain(secret.slice(4));
    }
  });
});
