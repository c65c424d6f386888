import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

/** Issue #46 item 6: the card back as a card (title and description edited in place, compact sections), Trello's shortcuts, label swatches with shades. */
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

/** A board with one list and the given cards; Bob is a member (someone to assign). */
async function seed(name: string, titles: string[]) {
  const bob = await makeUser(web.db, { name: 'Bob Builder' });
  const board = await makeBoard(web.db, admin.id, [{ userId: bob.id, role: 'member' }], name);
  const list = await api('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
  const cards: { id: number; title: string }[] = [];
  for (const title of titles) cards.push(await api('POST', `/api/lists/${list.id}/cards`, { title }));
  await api('POST', `/api/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
  return { board, list, cards, bob };
}

async function openBoard(page: Page, boardId: number) {
  await page.goto(`/boards/${boardId}`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('.list[data-list-id]').first().waitFor();
}

const tile = (page: Page, cardId: number) => page.locator(`li.card[data-card-id="${cardId}"]`);

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 390 × 844 phone', PHONE],
] as const) {
  describe(`the card back on ${device}`, () => {
    it('edits the title and the description in place: a click, Escape cancels, Ctrl+Enter saves; sections read in sentence case', { timeout: 120_000 }, async () => {
      const { board, cards } = await seed('In place', ['Draft the plan']);
      const card = cards[0]!;
      const tab = await openTab(browser, web, { user: admin, ...(viewport ? { viewport } : {}) });
      const { page } = tab;
      await openBoard(page, board.id);
      await tile(page, card.id).locator('.card-open').click();
      const dialog = page.getByRole('dialog');

      // The title is the heading; a click makes it a field. Escape cancels and keeps the card open.
      await dialog.getByRole('heading', { name: 'Draft the plan' }).click();
      const title = dialog.getByRole('textbox', { name: 'Title' });
      await title.fill('Something else');
      await title.press('Escape');
      await dialog.getByRole('heading', { name: 'Draft the plan' }).waitFor();
      expect(await dialog.isVisible()).toBe(true);
      expect((await api('GET', `/api/cards/${card.id}`)).title).toBe('Draft the plan');
      // Ctrl+Enter saves: the heading, the tile and the server follow.
      await dialog.getByRole('heading', { name: 'Draft the plan' }).click();
      await title.fill('Plan the launch');
      await title.press('Control+Enter');
      await dialog.getByRole('heading', { name: 'Plan the launch' }).waitFor();
      await tile(page, card.id).getByText('Plan the launch').waitFor();
      expect((await api('GET', `/api/cards/${card.id}`)).title).toBe('Plan the launch');

      // The description: a click on it edits it (the field has the focus), Escape cancels, Ctrl+Enter saves.
      await dialog.getByText('Add a more detailed description…').click();
      const description = dialog.getByRole('textbox', { name: 'Description' });
      await expect.poll(() => description.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await page.keyboard.type('Not this');
      await description.press('Escape');
      await dialog.getByText('Add a more detailed description…').waitFor();
      expect(await dialog.isVisible()).toBe(true);
      expect((await api('GET', `/api/cards/${card.id}`)).description).toBe('');
      await dialog.getByText('Add a more detailed description…').click();
      await page.keyboard.type('**Why**: ship it');
      await description.press('Control+Enter');
      await dialog.locator('.description strong', { hasText: 'Why' }).waitFor();
      expect((await api('GET', `/api/cards/${card.id}`)).description).toBe('**Why**: ship it');

      // Compact sections, headed in sentence case (no ALL-CAPS), above the comments; no Save button at rest.
      for (const name of ['Labels', 'Members', 'Due date', 'Description', 'Checklists', 'Attachments']) {
        const heading = dialog.getByRole('heading', { name, exact: true });
        expect(await heading.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).textTransform), name).toBe('none');
        if (['Labels', 'Members', 'Due date'].includes(name)) {
          expect((await heading.boundingBox())!.y, name).toBeLessThan((await dialog.getByRole('heading', { name: 'Comments', exact: true }).boundingBox())!.y);
        }
      }
      expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await tab.checkContrast();
      await tab.close();
    });

    it("has Trello's shortcuts (e, c, d, l, m, /, f, ?), never while typing in a field", { timeout: 180_000 }, async () => {
      const { board, cards } = await seed('Shortcuts', ['Pointed at', 'Archived by c', 'Stays']);
      const [first, second] = [cards[0]!, cards[1]!];
      const tab = await openTab(browser, web, { user: admin, ...(viewport ? { viewport } : {}) });
      const { page } = tab;
      await openBoard(page, board.id);

      // `l` over a card opens it with its labels to tick (the first has the focus); Escape closes the panel, not the card.
      await tile(page, first.id).hover();
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Pointed at' });
      const labels = dialog.getByRole('group', { name: 'Edit labels' });
      await labels.waitFor();
      await expect.poll(() => labels.getByRole('checkbox', { name: 'Bug' }).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      await expect.poll(async () => (await api('GET', `/api/cards/${first.id}`)).labelIds.length).toBe(1);
      await page.keyboard.press('Escape');
      await labels.waitFor({ state: 'detached' });
      expect(await dialog.isVisible()).toBe(true);

      // `m` in the open card: its members.
      await page.keyboard.press('m');
      const members = dialog.getByRole('group', { name: 'Edit members' });
      await members.getByRole('checkbox', { name: 'Bob Builder' }).click();
      await expect.poll(async () => (await api('GET', `/api/cards/${first.id}`)).memberIds.length).toBe(1);
      await page.keyboard.press('Escape');
      await members.waitFor({ state: 'detached' });

      // `d`: the due date, typed and saved with the keyboard.
      await page.keyboard.press('d');
      const due = dialog.getByRole('group', { name: 'Edit due date' }).getByLabel('Due date');
      await expect.poll(() => due.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await due.fill('2031-03-04T05:06');
      await dialog.getByRole('group', { name: 'Edit due date' }).getByRole('button', { name: 'Save' }).click();
      // The browser and this test share the machine's time zone: 05:06 local is the same instant to both.
      await expect.poll(async () => Date.parse((await api('GET', `/api/cards/${first.id}`)).dueAt ?? '')).toBe(new Date(2031, 2, 4, 5, 6).getTime());

      // `e`: the title, focused. Letters typed there are text, not shortcuts.
      await page.keyboard.press('e');
      const title = dialog.getByRole('textbox', { name: 'Title' });
      await expect.poll(() => title.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await page.keyboard.type(' lmcd?');
      expect(await title.inputValue()).toBe('Pointed at lmcd?');
      expect(await dialog.getByRole('group', { name: /^Edit / }).count()).toBe(0);
      expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
      await title.press('Escape');
      expect((await api('GET', `/api/cards/${first.id}`)).archived).toBe(false);

      // `c` archives the open card; the card says so.
      await page.keyboard.press('c');
      await dialog.getByText('Archived', { exact: true }).waitFor();
      expect((await api('GET', `/api/cards/${first.id}`)).archived).toBe(true);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // `c` over a card on the board archives that one.
      await tile(page, second.id).hover();
      await page.keyboard.press('c');
      await tile(page, second.id).waitFor({ state: 'detached' });
      expect((await api('GET', `/api/cards/${second.id}`)).archived).toBe(true);
      await page.getByText('Archived “Archived by c”. Find it under Archived items.').waitFor({ state: 'attached' });

      // `/` goes to the search; typed there, `f` and `?` are text.
      await page.mouse.move(0, 0);
      await page.keyboard.press('/');
      const search = page.getByRole('searchbox', { name: 'Search cards' });
      await expect.poll(() => search.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await page.keyboard.type('f?');
      expect(await search.inputValue()).toBe('f?');
      await search.fill('');
      await search.blur();
      // `f` opens the Filter panel (test/web/board-filter.test.ts tries it).
      await page.keyboard.press('f');
      const filter = page.getByRole('dialog', { name: 'Filter' });
      await filter.waitFor();
      await page.keyboard.press('Escape');
      await filter.waitFor({ state: 'detached' });

      // `?` lists them all.
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      for (const key of ['e', 'c', 'd', 'l', 'm', '/', 'f', '?']) await help.locator('kbd', { hasText: new RegExp(`^${key.replace(/[?/]/, '\\$&')}$`) }).waitFor();
      await tab.checkContrast();
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
      await tab.close();
    });

    it('picks a label colour from swatches, shades included: the label is blue + dark everywhere', { timeout: 120_000 }, async () => {
      const { board, cards } = await seed('Swatches', ['Colour me']);
      const card = cards[0]!;
      const tab = await openTab(browser, web, { user: admin, ...(viewport ? { viewport } : {}) });
      const { page } = tab;
      await openBoard(page, board.id);
      await tile(page, card.id).locator('.card-open').click();
      const dialog = page.getByRole('dialog', { name: 'Colour me' });
      await dialog.getByRole('button', { name: 'Edit labels' }).click();
      const panel = dialog.getByRole('group', { name: 'Edit labels' });
      await panel.getByText('New label').click();
      await panel.getByLabel('Name').fill('Deep work');
      const colours = panel.getByRole('group', { name: 'Colour' });
      // Thirty swatches (ten colours, each light, plain and dark) and "No colour", as radio buttons with names.
      expect(await colours.getByRole('radio').count()).toBe(31);
      await colours.getByRole('radio', { name: 'Blue dark', exact: true }).click();
      expect(await colours.getByRole('radio', { name: 'Blue dark', exact: true }).isChecked()).toBe(true);
      await panel.getByRole('button', { name: 'Create label' }).click();
      await expect.poll(() => panel.getByRole('checkbox', { name: 'Deep work' }).isChecked().catch(() => false)).toBe(true);
      const label = (await api('GET', `/api/boards/${board.id}`)).labels.find((l: { name: string }) => l.name === 'Deep work');
      expect(label).toMatchObject({ color: 'blue', shade: 'dark' });
      expect((await api('GET', `/api/cards/${card.id}`)).labelIds).toEqual([label.id]);
      // The chips show the shade, on the card back and on the tile.
      await dialog.locator('.compact-row .label.blue.shade-dark', { hasText: 'Deep work' }).waitFor();
      await tile(page, card.id).locator('.label.blue.shade-dark', { hasText: 'Deep work' }).waitFor();
      await tab.checkContrast();
      await tab.close();
    });
  });
}

describe('board search', () => {
  it('finds archived cards only with "Include archived" switched on', { timeout: 120_000 }, async () => {
    const { board, cards } = await seed('Archive search', ['Quarterly report', 'Quarterly budget']);
    await api('PATCH', `/api/cards/${cards[0]!.id}`, { archived: true });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    const search = page.getByRole('searchbox', { name: 'Search cards' });
    await search.fill('quarterly');
    await search.press('Enter');
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByRole('button', { name: 'Quarterly budget' }).waitFor();
    expect(await results.getByRole('button', { name: /Quarterly report/ }).count()).toBe(0);
    // Switched on, the results are searched again with the archived card, marked so.
    const archived = page.getByRole('switch', { name: 'Include archived' });
    await archived.click();
    expect(await archived.isChecked()).toBe(true);
    await results.getByRole('button', { name: 'Quarterly report (archived)' }).click();
    await page.getByRole('dialog', { name: 'Quarterly report' }).getByText('Archived', { exact: true }).waitFor();
    await tab.close();
  });
});

describe('the card back when a save is answered late', () => {
  it('a due date saved, then `e` before the answer: the title stays open and focused when the answer comes', { timeout: 120_000 }, async () => {
    const { board, cards } = await seed('Late answer', ['Slow due date']);
    const card = cards[0]!;
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    // The due date's PATCH is held until the title is open: a slow network, or a busy server.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/cards/${card.id}`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await tile(page, card.id).hover();
    await page.keyboard.press('d');
    const dialog = page.getByRole('dialog', { name: 'Slow due date' });
    const dueGroup = dialog.getByRole('group', { name: 'Edit due date' });
    await dueGroup.getByLabel('Due date').fill('2031-03-04T05:06');
    await dueGroup.getByRole('button', { name: 'Save' }).click();
    await page.keyboard.press('e');
    const title = dialog.getByRole('textbox', { name: 'Title' });
    await expect.poll(() => title.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    release();
    // The answer closes the due date's panel, and only that: the title is still being edited.
    await expect.poll(async () => (await api('GET', `/api/cards/${card.id}`)).dueAt).not.toBeNull();
    await dueGroup.waitFor({ state: 'detached' });
    expect(await title.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type(' now');
    expect(await title.inputValue()).toBe('Slow due date now');
    await tab.close();
  });
});
