import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKey, makeUser } from '../factories.js';
import { Browser, type ConnectorApp, connectAssistant, startConnectorApp } from './connector-helpers.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** The authorisation server's protocol rules and the consent page, driven by hand (no SDK). */
describe('connector OAuth: consent page and protocol rules', () => {
  let t: ConnectorApp;
  beforeAll(async () => {
    t = await startConnectorApp();
  });
  afterAll(async () => t.close());

  async function register(name = 'Hand-made client') {
    const res = await fetch(`${t.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'read write' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  function pkce() {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  }

  function authorizeUrl(clientId: string, challenge: string | null, extra: Record<string, string> = {}) {
    const url = new URL('/oauth/authorize', t.base);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'read write',
      state: 'xyz',
      resource: `${t.base}/mcp`,
      ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
      ...extra,
    }).toString();
    return url;
  }

  async function signedIn() {
    const user = await makeUser(t.db);
    const browser = new Browser(t.base);
    await browser.signIn(user.email, user.password);
    return { user, browser };
  }

  /** Starts an authorisation and returns the consent URL it led to. */
  async function toConsent(browser: Browser, clientId: string) {
    const res = await browser.request(authorizeUrl(clientId, pkce().challenge));
    expect(res.status).toBe(303);
    return res.headers.get('location')!;
  }

  it('sends a person without a session to sign in, and back to the consent page after', async () => {
    const clientId = await register();
    const browser = new Browser(t.base);
    const consent = await toConsent(browser, clientId);
    const res = await browser.request(consent);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(new URL(consent, t.base).pathname)}`);
  });

  it('shows the client name (escaped) and the scopes, under a strict CSP with no inline script', async () => {
    const clientId = await register('<script>alert(1)</script> Helper');
    const { user, browser } = await signedIn();
    const res = await browser.request(await toConsent(browser, clientId));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Helper');
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son\w+=/i);
    expect(html).toContain(user.email);
    expect(html).toMatch(/Read.*\n.*Write/);
    expect(html).toContain('value="approve"');
    expect(html).toContain('value="approve_read"');
    expect(html).toContain('value="deny"');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:9");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('deny returns access_denied to the client and connects nothing', async () => {
    const clientId = await register();
    const { user, browser } = await signedIn();
    const consent = await toConsent(browser, clientId);
    await browser.request(consent);
    const posted = await browser.request(consent, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.base }, body: 'decision=deny' });
    expect(posted.status).toBe(303);
    const back = await browser.request(posted.headers.get('location')!);
    const callback = new URL(back.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('xyz');
    expect(await t.db.prisma.connectorConnection.count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses a cross-origin approval (403) and a malformed decision (400)', async () => {
    const clientId = await register();
    const { user, browser } = await signedIn();
    const consent = await toConsent(browser, clientId);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const cross = await browser.request(consent, { method: 'POST', headers: { ...form, origin: 'https://evil.example' }, body: 'decision=approve' });
    expect(cross.status).toBe(403);
    // A person reads the refusal: a page of the app with a way back, never raw JSON.
    expect(cross.headers.get('content-type')).toMatch(/^text\/html/);
    const refusal = await cross.text();
    expect(refusal).toContain('Request refused');
    expect(refusal).toContain('href="/boards"');
    // `Origin: null` (a no-referrer page, a sandboxed frame) is refused unless the browser itself says same-origin.
    const opaque = await browser.request(consent, { method: 'POST', headers: { ...form, origin: 'null', 'sec-fetch-site': 'cross-site' }, body: 'decision=approve' });
    expect(opaque.status).toBe(403);
    const bad = await browser.request(consent, { method: 'POST', headers: { ...form, origin: t.base }, body: 'decision=maybe' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await t.db.prisma.connectorConnection.count({ where: { userId: user.id } })).toBe(0);
  });

  it('takes an approval posted with Origin: null when the browser marks it same-origin (Sec-Fetch-Site)', async () => {
    const clientId = await register();
    const { user, browser } = await signedIn();
    const consent = await toConsent(browser, clientId);
    await browser.request(consent);
    const posted = await browser.request(consent, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin' },
      body: 'decision=approve',
    });
    expect(posted.status).toBe(303);
    expect(await t.db.prisma.connectorConnection.count({ where: { userId: user.id } })).toBe(1);
  });

  it('serves its pages with a referrer policy that keeps the Origin header (no-referrer makes browsers send Origin: null)', async () => {
    const clientId = await register();
    const { browser } = await signedIn();
    const page = await browser.request(await toConsent(browser, clientId));
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(await page.text()).not.toContain('no-referrer');
  });

  it('an unknown or foreign interaction is an error page, not a 500', async () => {
    const { browser } = await signedIn();
    const res = await browser.request('/oauth/consent/nosuchinteraction');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('This request has expired');
  });

  it('requires PKCE with S256 and refuses any resource but /mcp', async () => {
    const clientId = await register();
    const { browser } = await signedIn();
    const errorOf = async (url: URL) => {
      const res = await browser.request(url);
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!, t.base).searchParams;
    };
    expect((await errorOf(authorizeUrl(clientId, null))).get('error')).toBe('invalid_request');
    const plain = await errorOf(authorizeUrl(clientId, null, { code_challenge: pkce().verifier, code_challenge_method: 'plain' }));
    expect(plain.get('error')).toBe('invalid_request');
    const other = await errorOf(authorizeUrl(clientId, pkce().challenge, { resource: `${t.base}/api` }));
    expect(other.get('error')).toBe('invalid_target');
  });

  it('never opens a connection to a loopback or private host named as a client ID metadata document', async () => {
    // A listener on loopback that must see nothing: the authorize endpoint is unauthenticated, and
    // a connection (even one closed at once) lets anyone probe internal ports by timing.
    const connections: string[] = [];
    const listener = net.createServer((socket) => {
      connections.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    try {
      const { browser } = await signedIn();
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::ffff:127.0.0.1]:${port}`, `127.1:${port}`, `0x7f000001:${port}`, `[::1]:${port}`]) {
        const clientId = `https://${host}/client.json`;
        const res = await browser.request(authorizeUrl(clientId, pkce().challenge));
        expect(res.status, clientId).toBe(400);
        expect(res.headers.get('content-type'), clientId).toMatch(/^text\/html/);
        expect(await res.text(), clientId).toContain('Authorisation failed');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(connections).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('registers http redirect URIs only on loopback (the code must not travel in clear text), and issues no registration token', async () => {
    const registerWith = (redirect: string) =>
      fetch(`${t.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'c', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
      });
    for (const refused of ['http://example.com/callback', 'http://10.1.2.3/cb', 'http://127.0.0.1.example.com/cb']) {
      const res = await registerWith(refused);
      expect(res.status, refused).toBe(400);
      expect(((await res.json()) as { error: string }).error, refused).toBe('invalid_redirect_uri');
    }
    const sector = await fetch(`${t.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'c', redirect_uris: ['https://assistant.example/cb'], sector_identifier_uri: 'https://assistant.example/sector.json', token_endpoint_auth_method: 'none' }),
    });
    expect(sector.status).toBe(400);
    expect(await sector.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: 'sector_identifier_uri is not supported' });
    for (const allowed of ['http://127.0.0.1:33418/callback', 'http://localhost:6274/oauth/callback', 'http://[::1]:8080/cb', 'https://assistant.example/callback']) {
      const res = await registerWith(allowed);
      expect(res.status, allowed).toBe(201);
      expect(await res.json(), allowed).not.toHaveProperty('registration_access_token');
    }
  });

  it('forgets a registered client nobody approves within a day; an approved one stays', async () => {
    const { sweepExpiredOAuthRecords, UNAPPROVED_CLIENT_TTL_S } = await import('../../src/connector/oauth-store.js');
    const unused = await register('never approved');
    const approved = await register('approved');
    const { browser } = await signedIn();
    const consent = await toConsent(browser, approved);
    await browser.request(consent);
    const posted = await browser.request(consent, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.base }, body: 'decision=approve' });
    expect(posted.status).toBe(303);
    const clientRow = (id: string) => t.db.prisma.oAuthRecord.findFirst({ where: { kind: 'Client', id: createHash('sha256').update(id).digest('hex') } });
    expect((await clientRow(unused))?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + (UNAPPROVED_CLIENT_TTL_S - 60) * 1000);
    expect((await clientRow(approved))?.expiresAt).toBeNull();
    await sweepExpiredOAuthRecords({ db: t.db.prisma, now: new Date(Date.now() + (UNAPPROVED_CLIENT_TTL_S + 60) * 1000) });
    expect(await clientRow(unused)).toBeNull();
    expect(await clientRow(approved)).not.toBeNull();
  });

  it('redeems a code once, only with its verifier; a code replay revokes what it issued', async () => {
    const clientId = await register();
    const { browser } = await signedIn();
    const { verifier, challenge } = pkce();
    const callback = await browser.consent(authorizeUrl(clientId, challenge), 'approve');
    const code = callback.searchParams.get('code')!;
    const redeem = (v: string) =>
      fetch(`${t.base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: v, client_id: clientId, redirect_uri: REDIRECT, resource: `${t.base}/mcp` }),
      });
    expect((await redeem(pkce().verifier)).status).toBe(400);
    const ok = await redeem(verifier);
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as { access_token: string; token_type: string; scope: string; expires_in: number };
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(tokens.scope.split(' ').sort()).toEqual(['read', 'write']);
    const tools = () =>
      fetch(`${t.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await tools()).status).toBe(200);
    expect((await redeem(verifier)).status).toBe(400);
    expect((await tools()).status).toBe(401);
    // Stored only as hashes: the database holds no token that works.
    const rows = await t.db.prisma.oAuthRecord.findMany({ where: { kind: 'AccessToken' } });
    expect(JSON.stringify(rows)).not.toContain(tokens.access_token);
  });

  it('GET and DELETE /account/connections: session only, own connections only; documented in /api/docs', async () => {
    const { user, browser } = await signedIn();
    const { browser: other } = await signedIn();
    await connectAssistant(t, browser);
    const res = await browser.request('/account/connections');
    expect(res.status).toBe(200);
    const { connections } = (await res.json()) as { connections: Record<string, unknown>[] };
    expect(connections).toHaveLength(1);
    expect(Object.keys(connections[0]!).sort()).toEqual(['clientId', 'clientName', 'createdAt', 'id', 'lastUsedAt', 'scopes']);
    expect(connections[0]).toMatchObject({ clientName: 'Test assistant', scopes: ['read', 'write'] });

    const id = connections[0]!.id as number;
    expect((await other.request(`/account/connections/${id}`, { method: 'DELETE', headers: { origin: t.base } })).status).toBe(404);
    const { token } = await makeKey(t.db, user.id);
    expect((await fetch(`${t.base}/account/connections`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await browser.request(`/account/connections/${id}`, { method: 'DELETE', headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await browser.request(`/account/connections/${id}`, { method: 'DELETE', headers: { origin: t.base } })).status).toBe(204);
    expect((await browser.request(`/account/connections/${id}`, { method: 'DELETE', headers: { origin: t.base } })).status).toBe(404);

    const doc = (await (await fetch(`${t.base}/api/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths['/account/connections']).toHaveProperty('get');
    expect(doc.paths['/account/connections/{id}']).toHaveProperty('delete');
  });
});

describe('connector rate limit', () => {
  let t: ConnectorApp;
  beforeAll(async () => {
    t = await startConnectorApp({ RATE_LIMIT_MAX: '40' });
  });
  afterAll(async () => t.close());

  it('a connection has a budget of its own, like any credential', async () => {
    const user = await makeUser(t.db);
    const browser = new Browser(t.base);
    await browser.signIn(user.email, user.password);
    const { provider } = await connectAssistant(t, browser);
    const post = () =>
      fetch(`${t.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    await post(); // the first request of a credential counts against the address
    const remaining: number[] = [];
    let refused: Response | null = null;
    for (let i = 0; i < 45 && !refused; i++) {
      const res = await post();
      if (res.status === 429) refused = res;
      else remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    // The connection's own budget (the SDK's connect already spent a few of it), one per call.
    expect(remaining[0]).toBeLessThan(40);
    expect(remaining.slice(1, 4)).toEqual([remaining[0]! - 1, remaining[0]! - 2, remaining[0]! - 3]);
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    // The address's own budget is another one: signing in still works.
    expect((await browser.request('/auth/me')).status).toBe(200);
  });
});
