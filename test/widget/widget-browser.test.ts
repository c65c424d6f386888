import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostSite } from './host-site.js';
import { runCommand } from '../../src/cli/run-command.js';
import { ARTICLES, answerWorkspace } from '../answers/answer-fixtures.js';
import { launchBrowser, type WebApp, startWebApp } from '../web/browser.js';

declare const window: any;
declare const document: any;

/** Script in every field that reaches the widget: none of it may run. */
const XSS = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
const XSS_ARTICLE = {
  externalId: 'shipping',
  title: `Shipping times ${XSS}`,
  body: `Parcels ship within two working days. [click](javascript:window.pwned=3) ${XSS} **Tracking** arrives by e-mail.`,
};

let browser: Browser;
let web: WebApp;
let host: Awaited<ReturnType<typeof startHostSite>>;
let hostOrigin: string;
/** The page the host site serves, per path: a plain HTML page holding the snippet. */
let pages: Map<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  web = await startWebApp();
  // The customer's site: another origin (another port) than the server the widget comes from.
  host = await startHostSite();
  hostOrigin = host.origin;
  pages = host.pages;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await host?.close();
}, 300_000);

async function widgetOn(origins: string[], extra: string[] = []) {
  const w = await answerWorkspace(web, { articles: [...ARTICLES, XSS_ARTICLE] });
  const out = await runCommand(['widget', 'create', '--agent', w.agentId, ...origins.flatMap((o) => ['--origin', o]), '--greeting', `Welcome! ${XSS}`, ...extra], { db: web.db, config: web.config, events: web.app.events, effects: web.app.effects });
  expect(out.exitCode, JSON.stringify(out.body)).toBe(0);
  const id = out.body.id as string;
  const snippet = (out.body.snippet as string).replace(/src="[^"]+\/widget\.js"/, `src="${web.base}/widget.js"`);
  const path = `/${id}.html`;
  pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<style>button{background:red!important;font-size:40px!important}</style></head>
<body><h1>Our shop</h1><p>Products.</p>${snippet}</body></html>`);
  return { ...w, id, url: `${hostOrigin}${path}` };
}

async function openPage(url: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(90_000);
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => requested.push(new URL(request.url()).origin));
  await page.goto(url);
  return { page, context, problems, requested };
}

async function askInWidget(page: Page, message: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(message);
  await box.press('Enter');
}

describe('the help widget on a customer\'s page (another origin)', () => {
  it('asks, shows the reply as elements with its sources, hands off with an e-mail; the ticket is in GET /v1/tickets; a reply from POST /v1/tickets/{id}/comments reaches the open widget; nothing injected runs', { timeout: 600_000 }, async () => {
    const w = await widgetOn([hostOrigin]);
    const { page, context, problems, requested } = await openPage(w.url);
    const launcher = page.getByRole('button', { name: 'Chat with us' });
    await launcher.click();
    // Focus goes into the panel, to the message box (the panel's first text box).
    expect(await page.evaluate(() => document.querySelector('[data-tb-widget]')!.shadowRoot!.activeElement?.id)).toBe('tbw-message');
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent(), { timeout: 60_000 }).toContain('Welcome! <img src=x onerror="window.pwned=1"><script>');

    await askInWidget(page, 'I forgot my password, how do I reset it?');
    await expect.poll(() => log.textContent(), { timeout: 90_000 }).toContain('Forgot password?');
    const source = log.getByRole('link', { name: 'Reset your password' });
    expect(await source.getAttribute('href')).toBe('https://help.example/pw-reset');

    // Script in an article (its title reaches the widget as a source and in the reply) is text.
    await askInWidget(page, 'How long does shipping take for parcels?');
    await expect.poll(() => log.textContent(), { timeout: 90_000 }).toContain('Shipping times <img src=x onerror="window.pwned=1"><script>');
    expect(await log.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await log.locator('img, script').count()).toBe(0);

    await askInWidget(page, 'Can I talk to a human about my contract?');
    const person = page.getByRole('button', { name: 'Talk to a person' });
    await person.click();
    const email = page.getByRole('textbox', { name: 'E-mail' });
    await email.fill('ana@customer.example');
    await email.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 60_000 }).toContain('A person from our team will answer here and by e-mail.');

    const wst = (await runCommand(['workspace', 'token', '--workspace', String(w.workspaceId)], { db: web.db, config: web.config, events: web.app.events, effects: web.app.effects })).body.token as string;
    const tickets = (await web.call({ authorization: `Bearer ${wst}` }, 'GET', '/v1/tickets')).json.tickets;
    expect(tickets).toEqual([expect.objectContaining({ subject: 'I forgot my password, how do I reset it?', requester: { email: 'ana@customer.example' }, conversationId: expect.stringMatching(/^cnv_/) })]);

    // The team replies through the API: the open widget shows it (live), script in it as text; an internal note never reaches it.
    const note = await web.call({ authorization: `Bearer ${wst}` }, 'POST', `/v1/tickets/${tickets[0].id}/comments`, { body: 'internal: check the contract', public: false });
    expect(note.status).toBe(201);
    const replied = await web.call({ authorization: `Bearer ${wst}` }, 'POST', `/v1/tickets/${tickets[0].id}/comments`, { body: `**Hello Ana**, your contract renews in May. ${XSS}` });
    expect(replied.status).toBe(201);
    await expect.poll(() => log.textContent(), { timeout: 60_000 }).toContain('Hello Ana, your contract renews in May.');
    expect(await log.locator('.team strong', { hasText: 'Hello Ana' }).count()).toBe(1);
    expect(await log.textContent()).not.toContain('internal: check the contract');
    // The customer's answer goes to the ticket, which is open again after being solved.
    await web.call({ authorization: `Bearer ${wst}` }, 'PATCH', `/v1/tickets/${tickets[0].id}`, { status: 'solved' });
    await askInWidget(page, 'Thanks, and can I change the renewal date?');
    await expect.poll(async () => (await web.call({ authorization: `Bearer ${wst}` }, 'GET', `/v1/tickets/${tickets[0].id}`)).json.status, { timeout: 60_000 }).toBe('open');
    const comments = (await web.call({ authorization: `Bearer ${wst}` }, 'GET', `/v1/tickets/${tickets[0].id}/comments`)).json.comments;
    expect(comments.map((c: { author: string; public: boolean }) => [c.author, c.public])).toEqual([['team', false], ['team', true], ['requester', true]]);

    // Escape closes the panel and gives focus back to the launcher.
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelector('[data-tb-widget]')!.shadowRoot!.activeElement?.getAttribute('aria-label'))).toBe('Chat with us');

    // A reload continues the same conversation (the visitor token is in the host page's localStorage).
    await page.reload();
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => page.getByRole('log').textContent(), { timeout: 60_000 }).toContain('Can I talk to a human about my contract?');

    expect(await page.evaluate(() => window.pwned)).toBeUndefined();
    expect(new Set(requested)).toEqual(new Set([hostOrigin, web.base]));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes the whole screen on a phone (390 × 844)', { timeout: 300_000 }, async () => {
    const w = await widgetOn([hostOrigin]);
    const { page, context, problems } = await openPage(w.url, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Chat with us' }).click();
    const box = await page.getByRole('dialog').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await askInWidget(page, 'How do I export invoices to CSV?');
    await expect.poll(() => page.getByRole('log').textContent(), { timeout: 90_000 }).toContain('CSV');
    const overflow = await page.evaluate(() => document.querySelector('[data-tb-widget]')!.shadowRoot!.querySelector('.log')!.scrollWidth - 390);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws nothing on a page of an unlisted origin, which gets 403', { timeout: 300_000 }, async () => {
    const w = await widgetOn(['https://shop.example.com']);
    const { page, context, problems } = await openPage(w.url);
    // The script loaded and asked; the server refused the origin.
    const refused = await fetch(`${web.base}/v1/widgets/${w.id}`, { headers: { origin: hostOrigin } });
    expect(refused.status).toBe(403);
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'Chat with us' }).count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('[data-tb-widget]').length)).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps script and styles under 30 KB gzipped', async () => {
    const res = await fetch(`${web.base}/widget.js`);
    expect(res.status).toBe(200);
    const js = Buffer.from(await res.arrayBuffer());
    const gzipped = gzipSync(js, { level: 9 }).length;
    expect(gzipped).toBeLessThan(30 * 1024);
    console.log(`widget.js: ${js.length} bytes, ${gzipped} bytes gzipped`);
  });
});
