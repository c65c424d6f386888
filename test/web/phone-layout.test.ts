import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { makeWorkspace } from '../workspace-factories.js';
import { horizontalOverflow, launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

/** The web app on a phone (390×844, an iPhone 12-15) and on a desktop (#35 item 4). */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** SHOTS=dir saves what each check saw, to look at. */
const SHOTS = process.env.SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
  // The first page a browser loads pays for its start (seconds on a loaded machine): paid here, not in a test's time.
  const warm = await openTab(browser, web);
  await warm.page.goto('/signin', { timeout: 60_000 });
  await warm.page.getByLabel('Password').waitFor({ timeout: 60_000 });
  await warm.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function boardWithCard() {
  const user = await makeUser(web.db, { name: 'Pat Phone' });
  const auth = (await makeKey(web.db, user.id, { name: 'nightly report' })).auth;
  const board = await makeBoard(web.db, user.id, [], 'Phone board');
  const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
  const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'Call the printer' })).json;
  await web.call(auth, 'POST', `/api/cards/${card.id}/comments`, { text: 'They open at nine.' });
  return { user, board, card };
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

describe('at phone width', () => {
  it('the navigation collapses into a menu: one header row, the links behind a Menu button', async () => {
    const { user, board } = await boardWithCard();
    const tab = await openTab(browser, web, { user, viewport: PHONE });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await shot(page, 'phone-board');
    expect((await box(page, 'header.top')).height).toBeLessThanOrEqual(64);
    // Nothing in the header overlaps anything else, and all of it is on screen (the bell once sat on the Menu button).
    const parts = await Promise.all(['header .brand', 'header .menu-button', 'header .bell-button', 'header .me > button'].map((s) => box(page, s)));
    for (const [i, a] of parts.entries()) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(PHONE.width);
      for (const b of parts.slice(i + 1)) expect(a.x + a.width <= b.x || b.x + b.width <= a.x, JSON.stringify([a, b])).toBe(true);
    }
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'API keys' }).isVisible()).toBe(false);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await shot(page, 'phone-menu');
    await nav.getByRole('link', { name: 'Your account' }).waitFor();
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    // Followed, the menu closes again.
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Boards', exact: true }).isVisible()).toBe(false);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await tab.close();
  });

  it('the support tabs become one control, and the section starts near the top', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: 'Phone support' });
    const tab = await openTab(browser, web, { user: owner, viewport: PHONE });
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/try`);
    const section = page.getByLabel('Section');
    await section.waitFor();
    await shot(page, 'phone-support-try');
    expect(await page.getByRole('navigation', { name: 'Support console' }).isVisible()).toBe(false);
    expect(await section.inputValue()).toBe('try');
    await section.selectOption({ label: 'Keys & token' });
    await page.waitForURL(new RegExp(`/support/${workspace.id}/access$`));
    await page.getByRole('heading', { name: 'Keys & token' }).waitFor();
    expect((await box(page, '#access-heading')).y).toBeLessThan(300);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await tab.close();
  });

  it('tables become stacked rows, each value with its column name, the row\'s actions on screen', async () => {
    const { user } = await boardWithCard();
    const tab = await openTab(browser, web, { user, viewport: PHONE });
    const { page } = tab;
    await page.goto('/settings/keys');
    const row = page.locator('tr[data-key-id]').first();
    await row.waitFor();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 10_000));
    await shot(page, 'phone-keys');
    const revoke = row.getByRole('button', { name: /Revoke/ });
    const button = (await revoke.boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(0);
    expect(button.x + button.width).toBeLessThanOrEqual(PHONE.width);
    // No sideways scrolling inside the table either.
    expect(await page.locator('.table-wrap').first().evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // Stacked: one cell under the other, each saying what it is.
    const cells = row.locator('td');
    expect((await cells.nth(1).boundingBox())!.y).toBeGreaterThan((await cells.nth(0).boundingBox())!.y);
    expect(await cells.nth(1).getAttribute('data-label')).toBe('Permission');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await tab.close();
  });

  it('the card dialog shows labels, members and the due date above the comments', async () => {
    const { user, board, card } = await boardWithCard();
    const tab = await openTab(browser, web, { user, viewport: PHONE });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator(`li.card[data-card-id="${card.id}"]`).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('They open at nine.').waitFor();
    await shot(page, 'phone-card');
    const y = async (name: string) => (await dialog.getByRole('heading', { name, exact: true }).boundingBox())!.y;
    const comments = await y('Comments');
    for (const part of ['Labels', 'Members', 'Due date']) expect(await y(part), part).toBeLessThan(comments);
    await tab.close();
  });
});

describe('at desktop width', () => {
  it('keeps the links in the header and the support tabs as tabs', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: 'Desk support' });
    const tab = await openTab(browser, web, { user: owner, viewport: DESKTOP });
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/try`);
    await page.getByRole('navigation', { name: 'Support console' }).waitFor();
    await shot(page, 'desktop-support-try');
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Section').isVisible()).toBe(false);
    await tab.close();
  });
});
