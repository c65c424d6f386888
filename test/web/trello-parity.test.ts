import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { boardFromApi, launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

/**
 * Issue #46 in Chromium, the way a person does it: the archived-items panel (desktop and a 390 px
 * touch phone), a list's archive, delete and move to another board, search with archived cards,
 * activity entries that open their card, Markdown rendered as elements, and comments edited,
 * deleted and written with an @ list. Every page is also checked for contrast (browser.ts).
 */
let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
  admin = await makeUser(web.db, { name: 'Ada Admin' });
  adminAuth = (await makeKey(web.db, admin.id)).auth;
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

const api = async (method: string, url: string, body?: unknown) => {
  const res = await web.call(adminAuth, method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
};

/** Lists by name, each with its cards by title: `{ board, lists: { name: { id, cards: { title: id } } } }`. */
async function seed(name: string, shape: Record<string, string[]>, others: { userId: number; role: 'admin' | 'member' | 'observer' }[] = []) {
  const board = await makeBoard(web.db, admin.id, others, name);
  const lists: Record<string, { id: number; cards: Record<string, number> }> = {};
  for (const [listName, titles] of Object.entries(shape)) {
    const list = await api('POST', `/api/boards/${board.id}/lists`, { name: listName });
    lists[listName] = { id: list.id, cards: {} };
    for (const title of titles) lists[listName]!.cards[title] = (await api('POST', `/api/lists/${list.id}/cards`, { title })).id;
  }
  return { board, lists };
}

async function openBoard(page: Page, boardId: number) {
  await page.goto(`/boards/${boardId}`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('.list[data-list-id]').first().waitFor();
}

describe('archived items (#46 item 2)', () => {
  for (const device of ['desktop', 'phone'] as const) {
    it(`finds archived cards and lists, restores a card where it was, and deletes a list after naming its cards, on ${device}`, { timeout: 400_000 }, async () => {
      const { board, lists } = await seed(`Archive ${device}`, { 'To do': ['Alpha', 'Bravo', 'Charlie'], Old: ['Relic'] });
      const todo = lists['To do']!;
      await api('PATCH', `/api/cards/${todo.cards.Bravo}`, { archived: true });
      await api('PATCH', `/api/cards/${lists.Old!.cards.Relic}`, { archived: true });
      await api('PATCH', `/api/lists/${lists.Old!.id}`, { archived: true });
      const tab = await openTab(browser, web, { user: admin, ...(device === 'phone' ? { viewport: PHONE, touch: true } : {}) });
      const { page } = tab;
      const press = (locator: ReturnType<Page['locator']>) => (device === 'phone' ? locator.tap() : locator.click());
      await openBoard(page, board.id);

      await press(page.getByRole('button', { name: 'Archived items' }));
      const panel = page.getByRole('dialog', { name: 'Archived items' });
      await panel.getByRole('button', { name: 'Bravo', exact: true }).waitFor();
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      await tab.checkContrast();

      // Search inside the panel.
      await panel.getByLabel('Search archived items').fill('rel');
      await panel.getByRole('button', { name: 'Relic', exact: true }).waitFor();
      expect(await panel.getByRole('button', { name: 'Bravo', exact: true }).count()).toBe(0);
      await panel.getByLabel('Search archived items').fill('');

      // Bravo comes back between Alpha and Charlie, where it was.
      await press(panel.getByRole('button', { name: 'Restore Bravo' }));
      await panel.getByRole('status').filter({ hasText: '“Bravo” is back in To do, position 2.' }).waitFor();
      await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[todo.id]).toEqual([todo.cards.Alpha, todo.cards.Bravo, todo.cards.Charlie]);
      await page.locator(`.list[data-list-id="${todo.id}"] li.card[data-card-id="${todo.cards.Bravo}"]`).waitFor();

      // Relic's list is archived: it comes back at the end of the first open list, and the panel says so.
      await press(panel.getByRole('button', { name: 'Restore Relic' }));
      await panel.getByRole('status').filter({ hasText: '“Relic” is back at the end of To do: its list Old is archived.' }).waitFor();

      // The archived list, deleted after a confirmation that says how many cards go with it.
      await press(panel.getByRole('button', { name: 'Delete list Old' }));
      const confirm = page.getByRole('dialog', { name: 'Delete this list?' });
      await confirm.getByText('The list “Old” is deleted for everyone. It has no cards.').waitFor();
      await press(confirm.getByRole('button', { name: 'Delete the list' }));
      await panel.getByRole('status').filter({ hasText: 'The list Old is deleted.' }).waitFor();
      expect((await web.call(adminAuth, 'GET', `/api/lists/${lists.Old!.id}`)).status).toBe(404);
      await tab.close();
    });
  }

  it('an activity entry about a card opens that card, archived too', { timeout: 400_000 }, async () => {
    const { board, lists } = await seed('Search', { 'To do': ['Quarterly report', 'Budget'] });
    await api('PATCH', `/api/cards/${lists['To do']!.cards['Quarterly report']}`, { archived: true });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    await page.getByRole('button', { name: 'Activity' }).click();
    await page.getByRole('complementary', { name: 'Activity' }).getByRole('link', { name: 'archived the card “Quarterly report”' }).click();
    await page.getByRole('dialog', { name: 'Quarterly report' }).waitFor();
    expect(page.url()).toContain(`card=${lists['To do']!.cards['Quarterly report']}`);
    await tab.close();
  });
});

describe('a list’s actions (#46 item 3)', () => {
  it('archives a list and restores it from the archive, deletes one after naming its cards, moves one to another board', { timeout: 400_000 }, async () => {
    const { board, lists } = await seed('Lists', { Keep: ['k1'], Shelve: ['s1', 's2'], Drop: ['d1', 'd2'], Travel: ['t1'] });
    const other = await makeBoard(web.db, admin.id, [], 'Elsewhere');
    await api('POST', `/api/boards/${other.id}/lists`, { name: 'Already there' });
    const label = await api('POST', `/api/boards/${board.id}/labels`, { name: 'Urgent', color: 'red' });
    await api('PUT', `/api/cards/${lists.Travel!.cards.t1}/labels/${label.id}`);
    await api('PATCH', `/api/cards/${lists.Drop!.cards.d2}`, { archived: true });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);

    await page.getByRole('button', { name: 'List actions: Shelve' }).click();
    await page.getByRole('dialog', { name: 'List: Shelve' }).getByRole('button', { name: 'Archive list' }).click();
    await page.locator(`.list[data-list-id="${lists.Shelve!.id}"]`).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Archived items' }).click();
    const panel = page.getByRole('dialog', { name: 'Archived items' });
    await panel.getByText('2 cards').waitFor();
    await panel.getByRole('button', { name: 'Restore Shelve' }).click();
    await page.locator(`.list[data-list-id="${lists.Shelve!.id}"]`).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();

    // Deleting names every card that goes with the list, the archived one included.
    await page.getByRole('button', { name: 'List actions: Drop' }).click();
    await page.getByRole('dialog', { name: 'List: Drop' }).getByRole('button', { name: 'Delete list Drop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this list?' });
    await confirm.getByText('The list “Drop” and its 2 cards are deleted for everyone', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete the list and 2 cards' }).click();
    await page.locator(`.list[data-list-id="${lists.Drop!.id}"]`).waitFor({ state: 'detached' });
    expect((await web.call(adminAuth, 'GET', `/api/cards/${lists.Drop!.cards.d2}`)).status).toBe(404);

    // To another board, at the position chosen: its card keeps its label, as that board's own.
    await page.getByRole('button', { name: 'List actions: Travel' }).click();
    const actions = page.getByRole('dialog', { name: 'List: Travel' });
    await actions.getByLabel('Board').selectOption({ label: 'Elsewhere' });
    await actions.getByLabel('Position').selectOption('0');
    await actions.getByRole('button', { name: 'Move list' }).click();
    await page.waitForURL(new RegExp(`/boards/${other.id}$`));
    await page.locator(`.list[data-list-id="${lists.Travel!.id}"]`).waitFor();
    expect((await boardFromApi(web, adminAuth, other.id)).lists[0]).toBe(lists.Travel!.id);
    const moved = await api('GET', `/api/cards/${lists.Travel!.cards.t1}`);
    const otherLabels = (await api('GET', `/api/boards/${other.id}`)).labels;
    expect(otherLabels.filter((l: { id: number }) => moved.labelIds.includes(l.id)).map((l: { name: string; color: string }) => `${l.name}/${l.color}`)).toEqual(['Urgent/red']);
    await tab.close();
  });
});

describe('Markdown (#46 item 4) and comments (#46 item 5)', () => {
  it('renders what people write as elements, never as HTML, on the card, the board and the Boards page; the editor previews it', { timeout: 400_000 }, async () => {
    const { board, lists } = await seed('Markdown', { Notes: ['Plan'] });
    const cardId = lists.Notes!.cards.Plan!;
    await api('PATCH', `/api/boards/${board.id}`, { description: 'The **launch** board\nsecond line' });
    await api('PATCH', `/api/cards/${cardId}`, { description: '## Why\nBecause **it matters**, see [the brief](https://example.com/brief) and [its ticket](/support/1/tickets/1), not [a](//evil.example/x) or [b](/\\evil.example/y).\n\n- one\n- two\n\n<img src=x onerror="window.hacked=1">' });
    const checklist = await api('POST', `/api/cards/${cardId}/checklists`, { name: 'Steps' });
    await api('POST', `/api/checklists/${checklist.id}/items`, { name: 'Read `notes.md` **first**' });
    await api('POST', `/api/cards/${cardId}/comments`, { text: '_Trello Sample User, 2022-11-21 19:23 UTC (imported):_ hello' });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;

    await page.goto('/boards');
    const tile = page.locator(`a.board-tile[href="/boards/${board.id}"]`);
    await tile.locator('strong', { hasText: 'launch' }).waitFor();
    await openBoard(page, board.id);
    await page.locator('.board-description strong', { hasText: 'launch' }).waitFor();
    expect(await page.locator('.board-description br').count()).toBe(1);

    await page.locator(`li.card[data-card-id="${cardId}"] .card-open`).click();
    const dialog = page.getByRole('dialog', { name: 'Plan' });
    const description = dialog.locator('.description');
    await description.getByRole('heading', { name: 'Why' }).waitFor();
    await description.locator('strong', { hasText: 'it matters' }).waitFor();
    const link = description.getByRole('link', { name: 'the brief' });
    expect(await link.getAttribute('href')).toBe('https://example.com/brief');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // A path of this app (a ticket's card links to its ticket) is a link in the same tab; another host's is text.
    const inApp = description.getByRole('link', { name: 'its ticket' });
    expect(await inApp.getAttribute('href')).toBe('/support/1/tickets/1');
    expect(await inApp.getAttribute('target')).toBeNull();
    expect(await description.getByRole('link').count()).toBe(2);
    await description.getByText('[a](//evil.example/x) or [b](/\\evil.example/y)', { exact: false }).waitFor();
    expect(await description.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await description.locator('img').count()).toBe(0);
    await description.getByText('<img src=x onerror="window.hacked=1">').waitFor();
    expect(await page.evaluate('window.hacked')).toBeUndefined();
    await dialog.locator('.checks code', { hasText: 'notes.md' }).waitFor();
    await dialog.locator('.checks strong', { hasText: 'first' }).waitFor();
    await dialog.locator('.comments em', { hasText: 'Trello Sample User, 2022-11-21 19:23 UTC (imported):' }).waitFor();
    expect(await dialog.locator('.comments').textContent()).not.toContain('_Trello');

    // Click the text to edit it; the preview renders; Escape cancels; Ctrl+Enter saves.
    await description.getByRole('heading', { name: 'Why' }).click();
    const editor = dialog.getByRole('textbox', { name: 'Description' });
    await editor.fill('# Done\n*all* of it');
    const tabs = dialog.getByRole('group', { name: 'Description: write or preview' });
    await tabs.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('region', { name: 'Description preview' }).locator('em', { hasText: 'all' }).waitFor();
    await tabs.getByRole('button', { name: 'Write' }).click();
    await editor.press('Escape');
    await description.getByRole('heading', { name: 'Why' }).waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Edit description' }).click();
    await editor.fill('# Done\n*all* of it');
    await editor.press('Control+Enter');
    await description.getByRole('heading', { name: 'Done' }).waitFor();
    expect((await api('GET', `/api/cards/${cardId}`)).description).toBe('# Done\n*all* of it');
    await tab.close();
  });

  it('edits your comment (marked edited, the old text in the activity), deletes it, lets an admin delete another’s, and @ offers the members', { timeout: 400_000 }, async () => {
    const bob = await makeUser(web.db, { name: 'Bob Builder' });
    const bobAuth = (await makeKey(web.db, bob.id)).auth;
    const { board, lists } = await seed('Comments', { Talk: ['Topic'] }, [{ userId: bob.id, role: 'member' }]);
    const cardId = lists.Talk!.cards.Topic!;
    const bobs = (await web.call(bobAuth, 'POST', `/api/cards/${cardId}/comments`, { text: 'Bob was here' })).json;
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?card=${cardId}`);
    const dialog = page.getByRole('dialog', { name: 'Topic' });
    const box = dialog.getByRole('combobox', { name: 'Write a comment' });
    await box.waitFor();

    // @ opens the board's members; the keyboard picks one.
    await box.pressSequentially('Please look @bo');
    const options = dialog.getByRole('listbox', { name: 'Board members' });
    await options.getByRole('option', { name: /Bob Builder/ }).waitFor();
    await box.press('Enter');
    const handle = bob.email.split('@')[0]!;
    await expect.poll(() => box.inputValue()).toBe(`Please look @${handle} `);
    await box.pressSequentially('today');
    await dialog.getByRole('button', { name: 'Comment', exact: true }).click();
    await dialog.locator('.comments li', { hasText: 'Please look' }).waitFor();
    const mine = dialog.locator(`.comments li[data-comment-id="${await dialog.locator('.comments li', { hasText: 'Please look' }).getAttribute('data-comment-id')}"]`);
    // The mention notifies, as a mention typed by hand does.
    await expect.poll(async () => (await web.call(bobAuth, 'GET', '/api/notifications/unread-count')).json.unread, { timeout: 30_000 }).toBeGreaterThan(0);

    // Edit: marked edited; the earlier text stays in the activity.
    await mine.getByRole('button', { name: 'Edit this comment' }).click();
    const edit = mine.getByRole('combobox', { name: 'Edit your comment' });
    await edit.fill('Please look **now**');
    await mine.getByRole('button', { name: 'Save comment' }).click();
    await mine.locator('strong', { hasText: 'now' }).waitFor();
    await mine.getByText('edited').waitFor();
    const log = (await api('GET', `/api/boards/${board.id}/activity`)).activities;
    expect(log.find((a: { type: string }) => a.type === 'comment.updated').data.previousText).toBe(`Please look @${handle} today`);

    // Delete your own; an admin deletes Bob's too.
    await mine.getByRole('button', { name: 'Delete this comment' }).click();
    await page.getByRole('dialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click();
    await mine.waitFor({ state: 'detached' });
    const his = dialog.locator(`.comments li[data-comment-id="${bobs.id}"]`);
    expect(await his.getByRole('button', { name: 'Edit this comment' }).count()).toBe(0);
    await his.getByRole('button', { name: 'Delete this comment' }).click();
    await page.getByRole('dialog', { name: 'Delete this comment?' }).getByText('Bob Builder’s comment is deleted for everyone.').waitFor();
    await page.getByRole('dialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click();
    await his.waitFor({ state: 'detached' });
    expect((await api('GET', `/api/cards/${cardId}`)).comments).toEqual([]);
    await tab.close();
  });
});
