import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

/** Issue #46 item 7, the filter: by label, member, due and words, in the URL, over the live board. */
let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
  admin = await makeUser(web.db, { name: 'Ada Admin' });
  adminAuth = (await makeKey(web.db, admin.id, { permission: 'write' })).auth;
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function api(method: string, url: string, body?: unknown) {
  const res = await web.call(adminAuth, method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Two lists: "Pay the invoice" (Bug, Ada's, overdue) and "Write the docs" (Bob's, due in three
 * days) in the first, "Fix the login" (nothing) in the second.
 */
async function seed(name: string) {
  const bob = await makeUser(web.db, { name: 'Bob Builder' });
  const board = await makeBoard(web.db, admin.id, [{ userId: bob.id, role: 'member' }], name);
  const todo = await api('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
  const doing = await api('POST', `/api/boards/${board.id}/lists`, { name: 'Doing' });
  const bug = await api('POST', `/api/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
  await api('POST', `/api/boards/${board.id}/labels`, { name: 'Idea', color: 'green' });
  const invoice = await api('POST', `/api/lists/${todo.id}/cards`, { title: 'Pay the invoice' });
  const docs = await api('POST', `/api/lists/${todo.id}/cards`, { title: 'Write the docs' });
  const login = await api('POST', `/api/lists/${doing.id}/cards`, { title: 'Fix the login' });
  await api('PUT', `/api/cards/${invoice.id}/labels/${bug.id}`);
  await api('PUT', `/api/cards/${invoice.id}/members/${admin.id}`);
  await api('PATCH', `/api/cards/${invoice.id}`, { dueAt: new Date(Date.now() - DAY).toISOString() });
  await api('PUT', `/api/cards/${docs.id}/members/${bob.id}`);
  await api('PATCH', `/api/cards/${docs.id}`, { dueAt: new Date(Date.now() + 3 * DAY).toISOString() });
  return { board, bug, invoice: invoice.id as number, docs: docs.id as number, login: login.id as number };
}

/** The ids of the card tiles shown, in board order. */
const shown = (page: Page) => page.locator('li.card[data-card-id]').evaluateAll((tiles) => tiles.map((t) => Number(t.getAttribute('data-card-id'))));

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 390 × 844 phone', PHONE],
] as const) {
  describe(`the board's filter on ${device}`, () => {
    it('filters by label (in the URL, kept on reload, live), my cards, overdue and words; Clear resets; f opens it', { timeout: 180_000 }, async () => {
      const { board, bug, invoice, docs, login } = await seed(`Filter ${device}`);
      const tab = await openTab(browser, web, { user: admin, ...(viewport ? { viewport } : {}) });
      const { page } = tab;
      await page.goto(`/boards/${board.id}`);
      await page.locator('[data-live="live"]').waitFor();
      await expect.poll(() => shown(page)).toEqual([invoice, docs, login]);

      // A label: only its cards show, the lists stay, the count is said and the URL has it.
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const panel = page.getByRole('dialog', { name: 'Filter' });
      await panel.getByRole('checkbox', { name: 'Bug' }).check();
      await panel.getByRole('status').filter({ hasText: 'Showing 1 of 3 cards' }).waitFor();
      await tab.checkContrast();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      await expect.poll(() => shown(page)).toEqual([invoice]);
      expect(await page.locator('.list[data-list-id]').count()).toBe(2);
      await page.getByRole('status').filter({ hasText: 'Showing 1 of 3 cards' }).waitFor();
      expect(new URL(page.url()).searchParams.get('labels')).toBe(String(bug.id));

      // Live: a card given the label through the API appears; one losing it goes.
      await api('PUT', `/api/cards/${login}/labels/${bug.id}`);
      await expect.poll(() => shown(page)).toEqual([invoice, login]);
      await api('DELETE', `/api/cards/${invoice}/labels/${bug.id}`);
      await expect.poll(() => shown(page)).toEqual([login]);

      // A reload (or the link, shared) keeps it.
      await page.reload();
      await page.locator('[data-live="live"]').waitFor();
      await expect.poll(() => shown(page)).toEqual([login]);
      await page.getByRole('status').filter({ hasText: 'Showing 1 of 3 cards' }).waitFor();
      await tab.checkContrast();

      // Clear filters: every card again, and the URL is clean.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => shown(page)).toEqual([invoice, docs, login]);
      expect(new URL(page.url()).searchParams.has('labels')).toBe(false);

      // `f` opens the panel; "My cards" is one click.
      await page.mouse.move(0, 0);
      await page.keyboard.press('f');
      await panel.waitFor();
      await panel.getByRole('checkbox', { name: 'My cards' }).check();
      await expect.poll(() => shown(page)).toEqual([invoice]);
      expect(new URL(page.url()).searchParams.get('members')).toBe('me');
      await panel.getByRole('checkbox', { name: 'My cards' }).uncheck();

      // Due: overdue, then the next seven days.
      await panel.getByRole('checkbox', { name: 'Overdue' }).check();
      await expect.poll(() => shown(page)).toEqual([invoice]);
      expect(new URL(page.url()).searchParams.get('due')).toBe('overdue');
      await panel.getByRole('checkbox', { name: 'Overdue' }).uncheck();
      await panel.getByRole('checkbox', { name: 'Due in the next 7 days' }).check();
      await expect.poll(() => shown(page)).toEqual([docs]);
      await panel.getByRole('checkbox', { name: 'Due in the next 7 days' }).uncheck();

      // Words.
      await panel.getByRole('searchbox', { name: 'Keyword' }).fill('INVOICE');
      await expect.poll(() => shown(page)).toEqual([invoice]);
      expect(new URL(page.url()).searchParams.get('q')).toBe('INVOICE');
      await panel.getByRole('status').filter({ hasText: 'Showing 1 of 3 cards' }).waitFor();

      // Clear filters in the panel.
      await panel.getByRole('button', { name: 'Clear filters' }).click();
      await panel.getByRole('status').filter({ hasText: 'Showing 3 of 3 cards' }).waitFor();
      expect(await panel.getByRole('searchbox', { name: 'Keyword' }).inputValue()).toBe('');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      await expect.poll(() => shown(page)).toEqual([invoice, docs, login]);
      expect(new URL(page.url()).search).toBe('');
      await tab.close();
    });
  });
}

describe('moving cards while filtered', () => {
  it('opens from a shared link; Alt+ArrowDown and a drop place a card by the cards shown, not the hidden ones', { timeout: 120_000 }, async () => {
    const board = await makeBoard(web.db, admin.id, [], 'Filtered moves');
    const list = await api('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const bug = await api('POST', `/api/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
    const ids: number[] = [];
    for (const title of ['First bug', 'Not a bug', 'Second bug']) ids.push((await api('POST', `/api/lists/${list.id}/cards`, { title })).id);
    await api('PUT', `/api/cards/${ids[0]}/labels/${bug.id}`);
    await api('PUT', `/api/cards/${ids[2]}/labels/${bug.id}`);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?labels=${bug.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await expect.poll(() => shown(page)).toEqual([ids[0], ids[2]]);
    await page.locator(`li.card[data-card-id="${ids[0]}"] .card-open`).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(async () => (await api('GET', `/api/cards/${ids[0]}`)).position).toBe(2);
    await expect.poll(() => shown(page)).toEqual([ids[2], ids[0]]);

    // Dragged to the top of what is shown: before "Second bug", so after the hidden "Not a bug".
    await page.locator(`li.card[data-card-id="${ids[0]}"]`).dragTo(page.locator(`.list[data-list-id="${list.id}"] ol.cards`), { targetPosition: { x: 20, y: 2 } });
    await expect.poll(async () => (await api('GET', `/api/cards/${ids[0]}`)).position).toBe(1);
    await expect.poll(() => shown(page)).toEqual([ids[0], ids[2]]);
    await tab.close();
  });
});
