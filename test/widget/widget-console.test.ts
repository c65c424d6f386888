import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostSite } from './host-site.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { horizontalOverflow, launchBrowser, openTab, PHONE, sessionFor, startWebApp, type WebApp } from '../web/browser.js';

declare const document: any;
declare const navigator: any;
declare const getComputedStyle: any;

/**
 * Support → Widget (#45 part 1): a support person creates the widget, sets it up with a live
 * preview, copies the snippet, and the snippet works on their site; desktop and phone.
 */
let browser: Browser;
let web: WebApp;
let host: Awaited<ReturnType<typeof startHostSite>>;
let hostOrigin: string;
let pages: Map<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  web = await startWebApp();
  host = await startHostSite();
  hostOrigin = host.origin;
  pages = host.pages;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await host?.close();
}, 300_000);

describe('Support → Widget in a browser', () => {
  it('creates a widget, previews its settings live, saves them, copies a snippet that works on the site, then deletes it', { timeout: 600_000 }, async () => {
    const w = await answerWorkspace(web);
    const tab = await openTab(browser, web, { user: w.owner });
    const { page, context } = tab;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });
    await page.goto(`/support/${w.workspaceId}`);
    await page.getByRole('link', { name: 'Widget' }).click();
    await page.getByTestId('empty-widgets').waitFor();

    // A site without a scheme is refused beside the field, in words.
    const sites = page.getByLabel('Allowed sites');
    await sites.fill('shop.example.com');
    await page.getByRole('button', { name: 'Create widget' }).click();
    await expect.poll(() => page.locator('.field-error').first().innerText().catch(() => '')).toMatch(/origin/i);

    await sites.fill(hostOrigin);
    await page.getByRole('button', { name: 'Create widget' }).click();
    const secretBox = page.getByRole('region', { name: /^Identity secret of wdg_/ });
    await expect.poll(() => secretBox.getByTestId('new-secret').innerText().catch(() => '')).toMatch(/^wis_/);
    const snippet = page.getByTestId('widget-snippet');
    await expect.poll(() => snippet.innerText().catch(() => '')).toMatch(new RegExp(`^<script src="${web.base}/widget\\.js" data-widget="wdg_[^"]+" async></script>$`));

    // The preview is the real widget, open, drawn with what the form says as it is typed.
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await expect.poll(() => preview.getByRole('dialog').getByRole('heading').innerText().catch(() => '')).not.toBe('');
    await page.getByLabel('Team name').fill('Acme Support');
    await expect.poll(() => preview.getByRole('heading', { name: 'Acme Support' }).count()).toBe(1);
    await page.getByLabel('Greeting').fill('Hi! Ask us anything about **Acme**.');
    await expect.poll(() => preview.getByRole('log').innerText().catch(() => '')).toContain('Hi! Ask us anything about Acme.');
    // A pale brand colour gets dark text on it, not white (4.5:1 either way).
    await page.getByLabel('Colour').fill('#ffe14d');
    const headingColour = () => preview.getByRole('heading', { name: 'Acme Support' }).evaluate((h: any) => getComputedStyle(h).color).catch(() => '');
    await expect.poll(headingColour).toBe('rgb(26, 26, 26)');
    await page.getByLabel('Colour').fill('#123f7a');
    await expect.poll(headingColour).toBe('rgb(255, 255, 255)');
    await page.getByLabel('Bottom left').check();
    await expect.poll(() => preview.getByRole('button', { name: 'Chat with us' }).getAttribute('class').catch(() => '')).toContain('left');
    // The preview sends nothing.
    await preview.getByRole('textbox', { name: 'Message' }).fill('hello');
    await preview.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect.poll(() => preview.getByRole('status').first().innerText().catch(() => '')).toBe('This is a preview: messages are not sent.');
    expect(await web.db.prisma.conversation.count({ where: { workspaceId: w.workspaceId } })).toBe(0);

    await page.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Saved.').waitFor();
    // SHOTS=docs/screenshots writes the README's pictures.
    if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/widget-settings.png`, fullPage: true });
    const { cookie } = await sessionFor(web, w.owner.email, w.owner.password);
    const saved = (await web.call({ cookie }, 'GET', `/agent/workspaces/${w.workspaceId}/widgets`)).json.widgets;
    expect(saved).toEqual([expect.objectContaining({ teamName: 'Acme Support', greeting: 'Hi! Ask us anything about **Acme**.', color: '#123f7a', launcherSide: 'left', origins: [hostOrigin] })]);

    // Copied, the snippet is what the site pastes: on the site (another origin) the widget is there, as set.
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    const copied = (await page.evaluate(() => navigator.clipboard.readText())) as string;
    expect(copied).toBe(saved[0].snippet);
    pages.set('/shop.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${copied}</body></html>`);
    const site = await context.newPage();
    await site.goto(`${hostOrigin}/shop.html`);
    await site.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => site.getByRole('dialog').getByRole('heading').innerText().catch(() => ''), { timeout: 60_000 }).toBe('Acme Support');
    await expect.poll(() => site.getByRole('log').innerText().catch(() => '')).toContain('Hi! Ask us anything about Acme.');
    if (process.env.SHOTS) {
      const box = site.getByRole('textbox', { name: 'Message' });
      await box.fill('I forgot my password, how do I reset it?');
      await box.press('Enter');
      await expect.poll(() => site.getByRole('log').innerText(), { timeout: 60_000 }).toContain('Reset your password');
      await site.screenshot({ path: `${process.env.SHOTS}/widget-site.png` });
      await site.setViewportSize(PHONE);
      await site.screenshot({ path: `${process.env.SHOTS}/widget-phone.png` });
    }
    await site.close();

    // On a phone: one column, nothing wider than the screen, the preview's panel the whole frame.
    await page.setViewportSize(PHONE);
    await expect.poll(() => horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const frameWidth = await page.locator('iframe[title="Widget preview"]').evaluate((f: any) => f.clientWidth);
    await expect.poll(() => preview.getByRole('dialog').evaluate((d: any) => d.getBoundingClientRect().width)).toBe(frameWidth);
    await tab.checkContrast();
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: `Delete ${saved[0].id}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete widget' }).click();
    await page.getByTestId('empty-widgets').waitFor();
    expect((await web.call({ cookie }, 'GET', `/agent/workspaces/${w.workspaceId}/widgets`)).json.widgets).toEqual([]);
    await tab.close();
  });

  it('names the server in the snippet by PUBLIC_BASE_URL or its own address, never by the Host a request came with', async () => {
    const w = await answerWorkspace(web);
    const { cookie } = await sessionFor(web, w.owner.email, w.owner.password);
    const res = await web.app.inject({
      method: 'POST',
      url: `/agent/workspaces/${w.workspaceId}/widgets`,
      headers: { cookie, host: 'evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json' },
      payload: { agentId: w.agentId, origins: ['https://shop.example.com'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().snippet).toBe(`<script src="${web.base}/widget.js" data-widget="${res.json().id}" async></script>`);
    const list = await web.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/widgets`, headers: { cookie, host: 'evil.example' } });
    expect(list.json().widgets[0].snippet).not.toContain('evil.example');
  });
});
