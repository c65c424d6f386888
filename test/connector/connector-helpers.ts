import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser as Chromium } from 'playwright-core';
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helper.js';
import { freePort } from '../net.js';

/** The real app listening on loopback, with PUBLIC_BASE_URL set to where it listens (the OAuth issuer). */
export async function startConnectorApp(env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ PUBLIC_BASE_URL: base, WEBHOOK_ALLOW_PRIVATE: 'true', ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { base });
}
export type ConnectorApp = TestApp & { base: string };

/** An assistant's OAuth state, kept in memory: what the SDK asks its host application to store. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl = 'http://127.0.0.1:9/callback',
    readonly name = 'Test assistant',
    readonly scope?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Whoever answers the consent page: follows the authorisation URL and returns where the flow ended. */
export interface Person {
  consent(authorizationUrl: URL, decision: 'approve' | 'approve_read' | 'deny'): Promise<URL>;
}

/**
 * A person in Chromium: opens the authorisation URL, signs in through the web app's form, and
 * clicks on the consent page, as people do (the browser sets Origin, Referer and Sec-Fetch-*
 * itself). The client's redirect URI is answered inside the browser, where the flow ends.
 */
export class ChromiumPerson implements Person {
  /** The consent page as the person saw it, for assertions on its look. */
  consentScreenshot: Buffer | null = null;
  consentTitle = '';
  consentButtonBackground = '';
  problems: string[] = [];

  constructor(
    readonly chromium: Chromium,
    readonly base: string,
    readonly user: { email: string; password: string },
  ) {}

  async consent(authorizationUrl: URL, decision: 'approve' | 'approve_read' | 'deny') {
    const context = await this.chromium.newContext({ baseURL: this.base });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) this.problems.push(`CSP: ${message.text()}`);
      });
      const redirect = new URL(authorizationUrl.searchParams.get('redirect_uri')!);
      let ended: URL | null = null;
      await context.route(`${redirect.origin}${redirect.pathname}**`, async (route) => {
        ended = new URL(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' });
      });

      await page.goto(authorizationUrl.href);
      // Not signed in: the app's sign-in page, which returns to the consent page afterwards.
      await page.waitForURL(/\/signin\?next=/);
      await page.getByLabel('E-mail').fill(this.user.email);
      await page.getByLabel('Password').fill(this.user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/oauth\/consent\//);
      this.consentTitle = await page.title();
      const approve = page.getByRole('button', { name: /^Approve/ });
      this.consentButtonBackground = await approve.evaluate((button) => getComputedStyle(button).backgroundColor);
      this.consentScreenshot = await page.screenshot({ fullPage: true });
      const label = { approve: /^Approve/, approve_read: /^Allow read only$/, deny: /^Deny$/ }[decision];
      await page.getByRole('button', { name: label }).click();
      try {
        await expect.poll(() => ended, { timeout: 10_000 }).not.toBeNull();
      } catch {
        const shown = await page.textContent('body').catch(() => null);
        throw new Error(`the flow did not reach ${redirect.href}; the browser shows ${page.url()}: ${shown?.replace(/\s+/g, ' ').slice(0, 400)}`);
      }
      return ended!;
    } finally {
      await context.close();
    }
  }
}

declare const getComputedStyle: (element: unknown) => { backgroundColor: string };

/** A browser for the consent flow: keeps cookies, never follows redirects by itself. */
export class Browser implements Person {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(url: string | URL, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, this.base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async signIn(email: string, password: string) {
    const res = await this.request('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(res.status).toBe(200);
  }

  /** Follows the authorisation URL to our consent page and answers it; returns where the flow ended. */
  async consent(authorizationUrl: URL, decision: 'approve' | 'approve_read' | 'deny') {
    const start = await this.request(authorizationUrl);
    expect(start.status, await start.clone().text()).toBe(303);
    const consentUrl = start.headers.get('location')!;
    expect(new URL(consentUrl, this.base).pathname).toMatch(/^\/oauth\/consent\//);
    const page = await this.request(consentUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const posted = await this.request(action.replace(/&amp;/g, '&'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: `decision=${decision}`,
    });
    expect(posted.status).toBe(303);
    const resumed = await this.request(posted.headers.get('location')!);
    expect(resumed.status).toBe(303);
    return new URL(resumed.headers.get('location')!, this.base);
  }
}

/**
 * What an assistant does when a person adds the connector: the SDK's client discovers the
 * metadata, registers, and sends the person to authorise; the person approves (as `browser`);
 * the client exchanges the code and connects. Returns the connected client and its OAuth state.
 */
export async function connectAssistant(
  t: ConnectorApp,
  browser: Person,
  options: { decision?: 'approve' | 'approve_read'; provider?: MemoryOAuthProvider } = {},
) {
  const provider = options.provider ?? new MemoryOAuthProvider();
  const url = new URL('/mcp', t.base);
  const first = new Client({ name: 'test-assistant', version: '1.0.0' });
  await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const callback = await browser.consent(provider.authorizationUrl!, options.decision ?? 'approve');
  const code = callback.searchParams.get('code');
  expect(code, callback.href).toBeTruthy();
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(code!);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider };
}

/** A tool's structured result, or its error text. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
  return { isError: result.isError === true, text, data: result.structuredContent as any };
}
