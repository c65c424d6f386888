import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { horizontalOverflow, launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

// expect.poll's own 1 s gives up on a loaded CI box (the calendar's chunk and the board load first): 30 s, as the other browser tests wait.
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

/**
 * Issue #46 item 7, the views: the board as a calendar (month and week, by due date in the
 * person's zone, a card dragged to another day gets that day) and as a sortable table, both over
 * the board's filter and its live stream, opened from a Board / Calendar / Table switch kept in the URL.
 */
// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const document: any;

let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
  admin = await makeUser(web.db, { name: 'Ada Admin' });
  // Auckland (UTC+13 in March 2027): the day a card shows on is the person's, not UTC's.
  await web.db.prisma.user.update({ where: { id: admin.id }, data: { timeZone: 'Pacific/Auckland' } });
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
const dueOf = async (cardId: number) => (await api('GET', `/api/cards/${cardId}`)).dueAt as string | null;

/**
 * "To do": Pay the invoice (Bug, Ada's; due 10 Mar 2027 20:00 UTC = 11 Mar 09:00 in Auckland) and
 * Write the docs (due 15 Mar 02:30 UTC = 15:30 there; checklist 1 of 2); "Doing": Fix the login and
 * Plan the party (no dates; checklist 0 of 1).
 */
async function seed(name: string) {
  const bob = await makeUser(web.db, { name: 'Bob Builder' });
  const board = await makeBoard(web.db, admin.id, [{ userId: bob.id, role: 'member' }], name);
  const todo = await api('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
  const doing = await api('POST', `/api/boards/${board.id}/lists`, { name: 'Doing' });
  const bug = await api('POST', `/api/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
  const card = async (listId: number, title: string, dueAt?: string) => (await api('POST', `/api/lists/${listId}/cards`, { title, ...(dueAt ? { dueAt } : {}) })).id as number;
  const invoice = await card(todo.id, 'Pay the invoice', '2027-03-10T20:00:00.000Z');
  const docs = await card(todo.id, 'Write the docs', '2027-03-15T02:30:00.000Z');
  const login = await card(doing.id, 'Fix the login');
  const party = await card(doing.id, 'Plan the party');
  await api('PUT', `/api/cards/${invoice}/labels/${bug.id}`);
  await api('PUT', `/api/cards/${invoice}/members/${admin.id}`);
  await api('PUT', `/api/cards/${docs}/members/${bob.id}`);
  const steps = await api('POST', `/api/cards/${docs}/checklists`, { name: 'Steps' });
  const first = await api('POST', `/api/checklists/${steps.id}/items`, { name: 'Outline' });
  await api('POST', `/api/checklists/${steps.id}/items`, { name: 'Write' });
  await api('PATCH', `/api/items/${first.id}`, { checked: true });
  const guests = await api('POST', `/api/cards/${party}/checklists`, { name: 'Guests' });
  await api('POST', `/api/checklists/${guests.id}/items`, { name: 'Invite' });
  return { board, bug, doing: doing.id as number, invoice, docs, login, party };
}

/** The ids of the cards shown on a calendar day. */
const onDay = (page: Page, day: string) => page.locator(`.calendar-day[data-day="${day}"] [data-card-id]`).evaluateAll((tiles) => tiles.map((t) => Number(t.getAttribute('data-card-id'))));
/** The ids of the table's rows, top to bottom. */
const rows = (page: Page) => page.locator('.board-table tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-card-id'))));
const heading = (page: Page) => page.locator('#calendar-title').textContent();
const inAuckland = (iso: string) => new Intl.DateTimeFormat('en-US', { timeZone: 'Pacific/Auckland', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
const monthNow = () => new Intl.DateTimeFormat('en-US', { timeZone: 'Pacific/Auckland', year: 'numeric', month: 'long' }).format(new Date());

describe('a calendar drag over a card changed meanwhile', () => {
  it('is refused (the version it was shown at is sent), said, and the card shown where the server has it', { timeout: 180_000 }, async () => {
    const { board, invoice } = await seed('Calendar conflict');
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    // No live stream for this tab, so it does not hear of the change another client makes next.
    await page.route('**/events*', (route) => route.abort());
    await page.goto(`/boards/${board.id}?view=calendar&date=2027-03-15`);
    await poll(() => onDay(page, '2027-03-11')).toEqual([invoice]);
    await api('PATCH', `/api/cards/${invoice}`, { title: 'Pay the invoice now' });
    await page.locator(`.calendar-day [data-card-id="${invoice}"]`).dragTo(page.locator('.calendar-day[data-day="2027-03-18"]'));
    await page.getByRole('alert').filter({ hasText: 'changed since version' }).waitFor();
    expect(await dueOf(invoice)).toBe('2027-03-10T20:00:00.000Z');
    await poll(() => onDay(page, '2027-03-11')).toEqual([invoice]);
    await poll(() => page.locator(`.calendar-day [data-card-id="${invoice}"] button`).textContent()).toBe('Pay the invoice now');
    await page.unroute('**/events*');
    await tab.close();
  });
});

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 390 × 844 phone', PHONE],
] as const) {
  const phone = viewport !== undefined;
  describe(`the board's views on ${device}`, () => {
    it('Calendar: loaded when opened, month and week, previous/next/today, cards on their day in the account zone, moved to another day, live, filtered', { timeout: 240_000 }, async () => {
      const { board, bug, invoice, docs, login, party } = await seed(`Calendar ${device}`);
      const tab = await openTab(browser, web, { user: admin, ...(phone ? { viewport, touch: true } : {}) });
      const { page } = tab;
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await page.goto(`/boards/${board.id}`);
      await page.locator('[data-live="live"]').waitFor();
      await page.locator(`li.card[data-card-id="${invoice}"]`).waitFor();
      const onBoard = scripts.length;

      // The switch: a link named Calendar; its code comes when it is opened, not with the board.
      const calendarLink = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Calendar' });
      if (phone) await calendarLink.tap();
      else await calendarLink.click();
      await page.locator('.calendar').waitFor();
      expect(new URL(page.url()).searchParams.get('view')).toBe('calendar');
      expect(await calendarLink.getAttribute('aria-current')).toBe('page');
      expect(scripts.length, 'the calendar is a chunk of its own, fetched when opened').toBeGreaterThan(onBoard);
      expect(await heading(page)).toBe(monthNow());
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

      // A shared link opens the same view and month; each card is on its day in Auckland.
      await page.goto(`/boards/${board.id}?view=calendar&date=2027-03-15`);
      await page.locator('[data-live="live"]').waitFor();
      await poll(() => heading(page)).toBe('March 2027');
      await poll(() => onDay(page, '2027-03-11')).toEqual([invoice]);
      expect(await onDay(page, '2027-03-10')).toEqual([]);
      expect(await onDay(page, '2027-03-15')).toEqual([docs]);
      expect(await page.getByTestId('undated-count').textContent()).toBe('2 cards without a due date');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await tab.checkContrast();

      // Next, previous, today.
      await page.getByRole('button', { name: 'Next month' }).click();
      await poll(() => heading(page)).toBe('April 2027');
      expect(new URL(page.url()).searchParams.get('date')).toBe('2027-04-01');
      await page.getByRole('button', { name: 'Previous month' }).click();
      await page.getByRole('button', { name: 'Previous month' }).click();
      await poll(() => heading(page)).toBe('February 2027');
      await page.getByRole('button', { name: 'Today' }).click();
      await poll(() => heading(page)).toBe(monthNow());
      expect(new URL(page.url()).searchParams.has('date')).toBe(false);

      // The week: seven days, the one holding the date; previous week.
      await page.goto(`/boards/${board.id}?view=calendar&date=2027-03-15`);
      await page.locator('[data-live="live"]').waitFor();
      await page.getByRole('button', { name: 'Week', exact: true }).click();
      await poll(() => page.locator('.calendar-day').count()).toBe(7);
      expect(new URL(page.url()).searchParams.get('period')).toBe('week');
      expect(await page.getByRole('button', { name: 'Week', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await poll(() => onDay(page, '2027-03-15')).toEqual([docs]);
      expect(await page.locator(`.calendar-day [data-card-id="${invoice}"]`).count()).toBe(0);
      await tab.checkContrast();
      await page.getByRole('button', { name: 'Previous week' }).click();
      await poll(() => onDay(page, '2027-03-11')).toEqual([invoice]);
      await page.getByRole('button', { name: 'Month', exact: true }).click();
      await poll(() => page.locator('.calendar-day').count()).toBeGreaterThanOrEqual(28);
      expect(new URL(page.url()).searchParams.has('period')).toBe(false);
      await poll(() => heading(page)).toBe('March 2027');

      if (!phone) {
        // The mouse: the invoice dragged from the 11th to the 18th keeps 09:00 in Auckland.
        await page.locator(`.calendar-day [data-card-id="${invoice}"]`).dragTo(page.locator('.calendar-day[data-day="2027-03-18"]'));
        await poll(() => dueOf(invoice)).toBe('2027-03-17T20:00:00.000Z');
        await poll(() => onDay(page, '2027-03-18')).toEqual([invoice]);
        expect(await onDay(page, '2027-03-11')).toEqual([]);
        // The keyboard: Alt+→ a day on, and the card keeps the focus.
        await page.locator(`.calendar-day [data-card-id="${docs}"] button`).focus();
        await page.keyboard.press('Alt+ArrowRight');
        await poll(() => dueOf(docs)).toBe('2027-03-16T02:30:00.000Z');
        await poll(() => onDay(page, '2027-03-16')).toEqual([docs]);
        await poll(() => page.evaluate(() => document.activeElement?.closest('[data-card-id]')?.getAttribute('data-card-id'))).toBe(String(docs));
        await page.getByTestId('calendar-announcement').filter({ hasText: 'Moved “Write the docs” to' }).waitFor({ state: 'attached' });
        // A card without a date dragged onto a day: due there at noon.
        await page.locator(`.calendar-undated [data-card-id="${party}"]`).dragTo(page.locator('.calendar-day[data-day="2027-03-22"]'));
        await poll(() => dueOf(party)).toBe('2027-03-21T23:00:00.000Z');
        await poll(() => onDay(page, '2027-03-22')).toEqual([party]);
      } else {
        // Touch: a tap opens the card, whose due date is edited there; the calendar follows.
        await page.locator(`.calendar-day [data-card-id="${docs}"] button`).tap();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('heading', { name: 'Write the docs' }).waitFor();
        await dialog.getByRole('button', { name: 'Edit due date' }).first().tap();
        await dialog.getByLabel('Due date', { exact: true }).fill('2027-03-16T15:30');
        await dialog.getByRole('button', { name: 'Save' }).first().tap();
        await poll(() => dueOf(docs)).toBe('2027-03-16T02:30:00.000Z');
        await dialog.getByLabel('Due date', { exact: true }).waitFor({ state: 'detached' });
        await tab.checkContrast();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await poll(() => onDay(page, '2027-03-16')).toEqual([docs]);
        await api('PATCH', `/api/cards/${party}`, { dueAt: '2027-03-21T23:00:00.000Z' });
      }
      await poll(() => page.getByTestId('undated-count').textContent()).toBe('1 card without a due date');

      // A click opens the card as on the board.
      const tile = page.locator(`.calendar-day [data-card-id="${docs}"] button`);
      if (phone) await tile.tap();
      else await tile.click();
      await page.getByRole('dialog').getByRole('heading', { name: 'Write the docs' }).waitFor();
      expect(new URL(page.url()).searchParams.get('card')).toBe(String(docs));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // Live: a date set by another client shows without a reload.
      await api('PATCH', `/api/cards/${login}`, { dueAt: '2027-03-20T00:00:00.000Z' });
      await poll(() => onDay(page, '2027-03-20')).toEqual([login]);
      await poll(() => page.getByTestId('undated-count').textContent()).toBe('Every card shown has a due date');

      // The filter applies (the board's, from the URL): Bug cards only; it stays in the view.
      await page.goto(`/boards/${board.id}?view=calendar&date=2027-03-15&labels=${bug.id}`);
      await page.locator('[data-live="live"]').waitFor();
      await poll(() => page.locator('.calendar-day [data-card-id]').evaluateAll((t) => t.map((e) => Number(e.getAttribute('data-card-id'))))).toEqual([invoice]);
      await page.getByRole('status').filter({ hasText: 'Showing 1 of 4 cards' }).waitFor();
      await api('PUT', `/api/cards/${docs}/labels/${bug.id}`);
      await poll(() => onDay(page, '2027-03-16')).toEqual([docs]);
      await tab.close();
    });

    it('Table: rows are the filtered cards, sortable by a click or the keyboard (aria-sort), a title opens the card, live', { timeout: 240_000 }, async () => {
      const { board, invoice, docs, login, party, doing } = await seed(`Table ${device}`);
      const tab = await openTab(browser, web, { user: admin, ...(phone ? { viewport, touch: true } : {}) });
      const { page } = tab;
      await page.goto(`/boards/${board.id}`);
      await page.locator('[data-live="live"]').waitFor();
      // Keyboard: the switch is reached and followed with Enter.
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Table' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.board-table').waitFor();
      expect(new URL(page.url()).searchParams.get('view')).toBe('table');
      await poll(() => rows(page)).toEqual([invoice, docs, login, party]);
      const header = (name: string) => page.locator('.board-table thead th').filter({ has: page.getByRole('button', { name, exact: true }) });
      expect(await header('List').getAttribute('aria-sort')).toBe('ascending');
      // Each column: list, labels, members, due (in Auckland), checklist progress.
      const cells = await page.locator(`.board-table tr[data-card-id="${docs}"] > *`).allTextContents();
      expect(cells).toEqual(['Write the docs', 'To do', '', 'Bob Builder', inAuckland('2027-03-15T02:30:00.000Z'), '1/2']);
      expect(await page.locator(`.board-table tr[data-card-id="${invoice}"] > *`).allTextContents()).toEqual(['Pay the invoice', 'To do', 'Bug', 'Ada Admin', inAuckland('2027-03-10T20:00:00.000Z'), '']);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await tab.checkContrast();

      // Due: soonest first, cards without a date last; again: latest first.
      await page.getByRole('button', { name: 'Due', exact: true }).click();
      await poll(() => rows(page)).toEqual([invoice, docs, login, party]);
      expect(await header('Due').getAttribute('aria-sort')).toBe('ascending');
      expect(await header('List').getAttribute('aria-sort')).toBeNull();
      await page.getByRole('button', { name: 'Due', exact: true }).click();
      await poll(() => rows(page)).toEqual([docs, invoice, login, party]);
      expect(await header('Due').getAttribute('aria-sort')).toBe('descending');
      // The keyboard: checklist progress, least done first.
      await page.getByRole('button', { name: 'Checklist', exact: true }).focus();
      await page.keyboard.press('Enter');
      await poll(() => rows(page)).toEqual([party, docs, invoice, login]);
      expect(await header('Checklist').getAttribute('aria-sort')).toBe('ascending');
      await page.getByRole('button', { name: 'Card', exact: true }).click();
      await poll(() => rows(page)).toEqual([login, invoice, party, docs]);
      await page.getByRole('button', { name: 'Members', exact: true }).click();
      await poll(() => rows(page)).toEqual([invoice, docs, login, party]);
      await page.getByRole('button', { name: 'Labels', exact: true }).click();
      await page.getByRole('button', { name: 'Labels', exact: true }).click();
      await poll(() => rows(page)).toEqual([invoice, docs, login, party]);
      expect(await header('Labels').getAttribute('aria-sort')).toBe('descending');

      // A row's title opens the card.
      const title = page.locator(`.board-table tr[data-card-id="${login}"] button.card-title`);
      if (phone) await title.tap();
      else await title.click();
      await page.getByRole('dialog').getByRole('heading', { name: 'Fix the login' }).waitFor();
      await tab.checkContrast();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // Live: a card added elsewhere is a row; a date set elsewhere shows.
      const cake = (await api('POST', `/api/lists/${doing}/cards`, { title: 'Order the cake' })).id as number;
      await poll(() => rows(page)).toContain(cake);
      await api('PATCH', `/api/cards/${login}`, { dueAt: '2027-03-20T00:00:00.000Z' });
      await poll(() => page.locator(`.board-table tr[data-card-id="${login}"] time`).textContent()).toBe(inAuckland('2027-03-20T00:00:00.000Z'));

      // The filter: words from the URL, then "My cards" from the panel.
      await page.goto(`/boards/${board.id}?view=table&q=invoice`);
      await page.locator('[data-live="live"]').waitFor();
      await poll(() => rows(page)).toEqual([invoice]);
      await page.getByRole('button', { name: 'Change filter' }).click();
      const panel = page.getByRole('dialog', { name: 'Filter' });
      await panel.getByRole('searchbox', { name: 'Keyword' }).fill('');
      await panel.getByRole('checkbox', { name: 'My cards' }).check();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      await poll(() => rows(page)).toEqual([invoice]);
      expect(new URL(page.url()).searchParams.get('members')).toBe('me');
      expect(new URL(page.url()).searchParams.get('view')).toBe('table');
      await api('PUT', `/api/cards/${party}/members/${admin.id}`);
      await poll(() => rows(page)).toEqual([invoice, party]);

      // Back to the board, with the filter kept.
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Board' }).click();
      await poll(() => page.locator('li.card[data-card-id]').count()).toBe(2);
      expect(new URL(page.url()).searchParams.has('view')).toBe(false);
      expect(new URL(page.url()).searchParams.get('members')).toBe('me');
      await tab.close();
    });
  });
}
