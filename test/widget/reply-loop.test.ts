import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostSite } from './host-site.js';
import { runCommand } from '../../src/cli/run-command.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { LoopbackSmtp, linkIn } from '../smtp-server.js';
import { horizontalOverflow, launchBrowser, openTab, PHONE, type WebApp, startWebApp } from '../web/browser.js';

declare const document: any;

const smtp = new LoopbackSmtp();
let browser: Browser;
let web: WebApp;
let host: Awaited<ReturnType<typeof startHostSite>>;
let hostOrigin: string;
let pages: Map<string, string>;

beforeAll(async () => {
  await smtp.start();
  browser = await launchBrowser();
  // The real acknowledgement window (REPLY_MAIL_DELAY_MS's default, 10 s).
  web = await startWebApp(smtp.env());
  // The customer's site: another origin (another port) than the server the widget comes from.
  host = await startHostSite();
  hostOrigin = host.origin;
  pages = host.pages;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await smtp.stop();
  await host?.close();
}, 300_000);

const admin = (...argv: string[]) => runCommand(argv, { db: web.db, config: web.config, events: web.app.events, effects: web.app.effects }).then((o) => o.body);

async function widgetSite() {
  const w = await answerWorkspace(web);
  const out = await admin('widget', 'create', '--agent', w.agentId, '--origin', hostOrigin);
  const id = out.id as string;
  const snippet = (out.snippet as string).replace(/src="[^"]+\/widget\.js"/, `src="${web.base}/widget.js"`);
  const path = `/${id}.html`;
  pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head><body><h1>Our shop</h1>${snippet}</body></html>`);
  const wst = (await admin('workspace', 'token', '--workspace', String(w.workspaceId))).token as string;
  const api = (method: string, url: string, body?: unknown) => web.call({ authorization: `Bearer ${wst}` }, method, url, body);
  return { ...w, id, url: `${hostOrigin}${path}`, api };
}

/** A ticket handed off through the widget's API (no browser): for the console's own test. */
async function handedOffByApi(site: Awaited<ReturnType<typeof widgetSite>>, email: string) {
  const widget = (url: string, token?: string, payload?: object) =>
    web.app.inject({ method: 'POST', url: `/v1/widgets/${site.id}${url}`, headers: { origin: hostOrigin, ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: payload ?? {} });
  const visitor = (await widget('/visitors')).json().token as string;
  const conversationId = (await widget('/messages', visitor, { message: 'Can I talk to a human about my contract?' })).json().conversationId as string;
  const ticketId = (await widget('/handoff', visitor, { conversationId, email })).json().ticketId as number;
  return { conversationId, ticketId };
}

async function hostPage(url: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(90_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  return { page, context, problems };
}

async function askInWidget(page: Page, message: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(message);
  await box.press('Enter');
}

describe('the console\'s reply box', () => {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', PHONE]] as const) {
    it(`(${name}) replies publicly or adds an internal note, in the ticket and in its conversation; the thread shows both`, { timeout: 600_000 }, async () => {
      const site = await widgetSite();
      const email = `ana-${name}-${Date.now()}@customer.example`;
      const { conversationId, ticketId } = await handedOffByApi(site, email);
      const tab = await openTab(browser, web, { user: site.owner, viewport });
      const { page } = tab;
      page.setDefaultTimeout(30_000);
      await page.goto(`/support/${site.workspaceId}/tickets/${ticketId}`);
      await page.getByRole('heading', { name: 'Replies' }).waitFor();
      // The heading shows before the thread is loaded: wait for what it says.
      await page.getByText('No replies yet.').waitFor();

      const box = page.getByRole('textbox', { name: `Reply to ${email}` });
      await box.fill('**Hello Ana**, your contract renews in May. <script>window.pwned=1</script>');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect.poll(() => page.getByRole('status').allTextContents()).toContain(`Reply sent to ${email}.`);
      await page.getByRole('radio', { name: 'Internal note' }).check();
      await page.getByRole('textbox', { name: 'Internal note (the customer never sees it)' }).fill('check the contract date');
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect.poll(() => page.locator('.replies li').count()).toBe(2);
      expect(await page.locator('.replies li').first().locator('strong', { hasText: 'Hello Ana' }).count()).toBe(1);
      expect(await page.locator('.replies li.note').textContent()).toContain('Internal note');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

      const comments = (await site.api('GET', `/v1/tickets/${ticketId}/comments`)).json.comments;
      expect(comments.map((c: { author: string; public: boolean; body: string }) => [c.author, c.public, c.body.slice(0, 11)])).toEqual([['team', true, '**Hello Ana'], ['team', false, 'check the c']]);
      // The public reply's mail waits for an open widget; the note has none.
      expect(await web.db.prisma.mailMessage.count({ where: { recipient: email, kind: 'ticket-reply' } })).toBe(1);

      // The conversation the ticket came from shows the same thread and box.
      await page.goto(`/support/${site.workspaceId}/conversations/${conversationId}`);
      await page.getByRole('link', { name: `ticket #${ticketId}` }).waitFor();
      await expect.poll(() => page.locator('.replies li').count()).toBe(2);
      await page.getByRole('textbox', { name: `Reply to ${email}` }).fill('One more thing: bring your ID.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect.poll(() => page.locator('.replies li').count()).toBe(3);
      expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
      await tab.close();
    });
  }
});

describe('the whole loop: widget on another origin → ticket → reply → mail → reply page → rating', () => {
  it('a console reply reaches the open widget (no mail); closed, it is mailed; the link reopens the thread; the customer answers (open again); solved → rated in the widget; metrics show it', { timeout: 600_000 }, async () => {
    const site = await widgetSite();
    const email = `loop-${Date.now()}@customer.example`;
    const customer = await hostPage(site.url);
    const { page } = customer;
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await askInWidget(page, 'Can I talk to a human about my contract?');
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    const emailBox = page.getByRole('textbox', { name: 'E-mail' });
    await emailBox.fill(email);
    await emailBox.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 60_000 }).toContain('A person from our team will answer here and by e-mail.');
    const ticketId = (await site.api('GET', '/v1/tickets')).json.tickets[0].id as number;
    await expect.poll(() => web.app.ticketComments.watchers(ticketId), { timeout: 30_000 }).toBe(1);

    // The team answers in the console: the open widget shows it, and acknowledges it, so no mail is left to send.
    const team = await openTab(browser, web, { user: site.owner });
    team.page.setDefaultTimeout(30_000);
    await team.page.goto(`/support/${site.workspaceId}/tickets/${ticketId}`);
    await team.page.getByRole('textbox', { name: `Reply to ${email}` }).fill('Your contract renews in **May**.');
    await team.page.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => page.getByRole('log').textContent(), { timeout: 30_000 }).toContain('Your contract renews in May.');
    await expect.poll(() => web.db.prisma.mailMessage.count({ where: { recipient: email } }), { timeout: 30_000 }).toBe(0);

    // The customer leaves the page: the next reply is mailed (after the 10 s window).
    await page.goto('about:blank');
    await team.page.getByRole('textbox', { name: `Reply to ${email}` }).fill('We moved it to **June**, as you asked.');
    await team.page.getByRole('button', { name: 'Send reply' }).click();
    const mail = await smtp.waitFor(email, 90_000);
    expect(smtp.to(email)).toHaveLength(1);
    expect(mail.text).toContain('> We moved it to **June**, as you asked.');
    const link = linkIn(mail.text.replace(/^> .*$/gm, ''))!;
    expect(link.startsWith(`${web.base}/reply/trl_`)).toBe(true);

    // Its link opens the conversation without an account; the customer answers there.
    expect((await site.api('PATCH', `/v1/tickets/${ticketId}`, { status: 'pending' })).json.status).toBe('pending');
    const reader = await openTab(browser, web);
    reader.page.setDefaultTimeout(30_000);
    await reader.page.goto(link);
    await reader.page.getByRole('heading', { name: /Can I talk to a human/ }).waitFor();
    const thread = reader.page.getByRole('list', { name: 'Conversation' });
    await expect.poll(() => thread.textContent()).toContain('We moved it to June, as you asked.');
    expect(await thread.locator('strong', { hasText: 'June' }).count()).toBe(1);
    await reader.page.getByRole('textbox', { name: 'Your answer' }).fill('June is perfect, thank you!');
    await reader.page.getByRole('button', { name: 'Send to the team' }).click();
    await expect.poll(() => reader.page.getByRole('status').allTextContents()).toContain('Sent: the team sees your answer on the same request.');
    expect((await site.api('GET', `/v1/tickets/${ticketId}`)).json.status).toBe('open');

    // The customer is back on the site in the same browser (the visitor token is in its localStorage), on a phone,
    // with the panel open; the team sees the answer in the thread and solves the ticket.
    await page.setViewportSize(PHONE);
    await page.goto(site.url);
    const back = customer;
    await back.page.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => back.page.getByRole('log').textContent(), { timeout: 60_000 }).toContain('June is perfect, thank you!');
    await expect.poll(() => web.app.ticketComments.watchers(ticketId), { timeout: 30_000 }).toBe(1);
    await team.page.reload();
    await expect.poll(() => team.page.locator('.replies').textContent()).toContain('June is perfect, thank you!');
    await team.page.getByRole('combobox', { name: 'Status' }).selectOption('solved');
    await expect.poll(() => team.page.getByRole('status').allTextContents()).toContain('Status changed to solved.');

    // The open widget asks how we did at once (the stream's status event); so does the reply page; rated once.
    const ask = back.page.getByRole('group', { name: 'How did we do? (1 poor, 5 great)' });
    await ask.waitFor({ timeout: 60_000 });
    await reader.page.reload();
    await reader.page.getByRole('group', { name: 'How did we do?' }).waitFor();
    await ask.getByRole('radio', { name: '4' }).check();
    await back.page.getByRole('textbox', { name: 'Comment (optional)' }).fill('Quick and kind');
    await back.page.getByRole('button', { name: 'Send rating' }).click();
    await expect.poll(() => back.page.getByRole('status').textContent()).toContain('Thank you for your rating.');
    expect(await web.db.prisma.ticketRating.findUnique({ where: { ticketId }, select: { score: true, comment: true } })).toEqual({ score: 4, comment: 'Quick and kind' });
    expect(await back.page.evaluate(() => document.querySelector('[data-tb-widget]')!.shadowRoot!.querySelector('.rating')!.hidden)).toBe(true);
    await back.context.close();
    expect(back.problems).toEqual([]);

    // Rated once: the reply page says so instead of asking again.
    await reader.page.reload();
    await reader.page.getByText('Thank you for rating our help.').waitFor();
    await reader.close();

    // The console's metrics: satisfaction, and the conversation handed to a person and solved.
    await team.page.goto(`/support/${site.workspaceId}/metrics`);
    const stats = team.page.getByTestId('support-metrics');
    await expect.poll(() => stats.textContent()).toContain('4.0 / 5');
    expect(await stats.textContent()).toContain('Handed to a person1 (1 solved)');
    await team.close();
  });
});

describe('a reply that came while the page was away', () => {
  it('is acknowledged when the customer comes back and the widget loads the conversation, so its mail is held back', { timeout: 600_000 }, async () => {
    const site = await widgetSite();
    const email = `back-${Date.now()}@customer.example`;
    const customer = await hostPage(site.url);
    const { page } = customer;
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await askInWidget(page, 'Can I talk to a human about my invoice?');
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('textbox', { name: 'E-mail' }).press('Enter');
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 60_000 }).toContain('A person from our team will answer here and by e-mail.');
    await page.goto('about:blank');

    const ticketId = (await site.api('GET', '/v1/tickets')).json.tickets[0].id as number;
    expect((await site.api('POST', `/v1/tickets/${ticketId}/comments`, { body: 'Your invoice is corrected.' })).status).toBe(201);
    // The test stands in for a customer back within the window, whatever this machine's load: the mail is made due later.
    await web.db.prisma.mailMessage.updateMany({ where: { recipient: email }, data: { nextAttemptAt: new Date(Date.now() + 600_000) } });
    expect(await web.db.prisma.mailMessage.count({ where: { recipient: email } })).toBe(1);

    await page.goto(site.url);
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => page.getByRole('log').textContent(), { timeout: 60_000 }).toContain('Your invoice is corrected.');
    await expect.poll(() => web.db.prisma.mailMessage.count({ where: { recipient: email } }), { timeout: 30_000 }).toBe(0);
    await customer.context.close();
    expect(customer.problems).toEqual([]);
  });
});
