import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { boardFromApi, cardsOnScreen, horizontalOverflow, launchBrowser, listsOnScreen, openTab, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page. The server's tsconfig has no DOM types, so
// the browser globals they use are declared here, for this file only.
declare const document: any;
declare const window: any;

/** The board page in headless Chromium against the real server: live moves, drag and drop, keyboard, roles, conflicts. */
let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
  admin = await makeUser(web.db, { name: 'Ada Admin' });
  adminAuth = (await makeKey(web.db, admin.id)).auth;
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

/** A board of the admin's with lists of cards made through the API: `{ board, lists: [{ id, cards: [id…] }] }`. */
async function seedBoard(name: string, shape: number[], others: { userId: number; role: 'admin' | 'member' | 'observer' }[] = []) {
  const board = await makeBoard(web.db, admin.id, others, name);
  const lists: { id: number; cards: number[] }[] = [];
  for (const [l, count] of shape.entries()) {
    const list = (await web.call(adminAuth, 'POST', `/api/boards/${board.id}/lists`, { name: `List ${l + 1}` })).json;
    const cards: number[] = [];
    for (let c = 0; c < count; c++) cards.push((await web.call(adminAuth, 'POST', `/api/lists/${list.id}/cards`, { title: `Card ${l + 1}.${c + 1}` })).json.id);
    lists.push({ id: list.id, cards });
  }
  return { board, lists };
}

/** Opens the board and waits until its cards are drawn and its event stream is live. */
async function openBoard(page: Page, boardId: number) {
  await page.goto(`/boards/${boardId}`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('.list[data-list-id]').first().waitFor();
}

const cardTile = (page: Page, id: number) => page.locator(`li.card[data-card-id="${id}"]`);
const cardList = (page: Page, listId: number) => page.locator(`.list[data-list-id="${listId}"] ol.cards`);

describe('a key made in the page, used by a script while the board is open', () => {
  it('moves the card on screen without a reload; revoked in the page, the key gets 401', async () => {
    const { board, lists } = await seedBoard('Live board', [3, 2]);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;

    await page.goto('/settings/keys');
    await page.getByLabel('Name').fill('nightly script');
    await page.getByLabel('Read and write').check();
    await page.getByLabel('Expiration').selectOption('30d');
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = (await page.locator('[data-testid=new-token]').textContent())!.trim();
    expect(token).toMatch(/^tsk_[0-9A-Za-z]{46}$/);
    await page.getByText('you will not see it again').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'nightly script' });
    await row.getByText('Read and write').waitFor();
    expect(await row.textContent()).toContain(token.slice(0, 10));
    const key = { authorization: `Bearer ${token}` };

    await page.getByRole('link', { name: 'Boards', exact: true }).click();
    await page.getByRole('link', { name: /Live board/ }).click();
    await page.locator('[data-live="live"]').waitFor();
    await cardTile(page, lists[0]!.cards[0]!).waitFor();
    await page.evaluate(() => (window.sameDocument = true));

    // The script moves the first card of list 1 to the top of list 2; the page shows it through its
    // live stream, without a reload. How fast ("within a second") is bench/web.ts's to measure, next
    // to its floor: a wall-clock bound here failed on a busy CI box, not on a slow page.
    const moved = lists[0]!.cards[0]!;
    const res = await web.call(key, 'POST', `/api/cards/${moved}/move`, { listId: lists[1]!.id, position: 0 });
    expect(res.status).toBe(200);
    await page.waitForFunction(
      ({ card, list }) => document.querySelector(`.list[data-list-id="${list}"] ol.cards li.card[data-card-id="${card}"]`) !== null,
      { card: moved, list: lists[1]!.id },
      { polling: 'raf', timeout: 30_000 },
    );
    expect(await cardsOnScreen(page)).toEqual({ [lists[0]!.id]: lists[0]!.cards.slice(1), [lists[1]!.id]: [moved, ...lists[1]!.cards] });
    expect(await page.evaluate(() => window.sameDocument)).toBe(true);

    // Revoked in the page, with confirmation: the server refuses the key at once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Revoke nightly script' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await web.call(key, 'POST', `/api/cards/${moved}/move`, { listId: lists[0]!.id, position: 0 });
    expect(refused.status).toBe(401);
    expect((await web.call(key, 'GET', `/api/boards/${board.id}`)).status).toBe(401);
    await tab.close();
  });
});

describe('drag and drop', () => {
  it('drops a card into another list and within its list where the pointer is, and the API agrees', async () => {
    const { board, lists } = await seedBoard('Drag cards', [4, 2, 0]);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    const [a, b, c] = lists as [(typeof lists)[0], (typeof lists)[0], (typeof lists)[0]];

    // Card 1.1 between list 2's two cards.
    const first = (await cardTile(page, b.cards[0]!).boundingBox())!;
    const second = (await cardTile(page, b.cards[1]!).boundingBox())!;
    const ol = (await cardList(page, b.id).boundingBox())!;
    await cardTile(page, a.cards[0]!).dragTo(cardList(page, b.id), { targetPosition: { x: 20, y: (first.y + first.height + second.y) / 2 - ol.y } });
    const expectedB = [b.cards[0]!, a.cards[0]!, b.cards[1]!];
    await expect.poll(() => cardsOnScreen(page)).toMatchObject({ [b.id]: expectedB });
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[b.id]).toEqual(expectedB);

    // Card 1.2 to the bottom of its own list (below 1.4).
    const listA = (await cardList(page, a.id).boundingBox())!;
    await cardTile(page, a.cards[1]!).dragTo(cardList(page, a.id), { targetPosition: { x: 20, y: listA.height - 2 } });
    const expectedA = [a.cards[2]!, a.cards[3]!, a.cards[1]!];
    await expect.poll(() => cardsOnScreen(page)).toMatchObject({ [a.id]: expectedA });
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[a.id]).toEqual(expectedA);

    // Into an empty list.
    await cardTile(page, a.cards[3]!).dragTo(cardList(page, c.id));
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards).toEqual({
      [a.id]: [a.cards[2]!, a.cards[1]!],
      [b.id]: expectedB,
      [c.id]: [a.cards[3]!],
    });
    expect(await cardsOnScreen(page)).toEqual((await boardFromApi(web, adminAuth, board.id)).cards);
    await tab.close();
  });

  it('drags a list by its header to a new place, and the API agrees', async () => {
    const { board, lists } = await seedBoard('Drag lists', [1, 1, 1]);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    const ids = lists.map((l) => l.id);
    const head = page.locator(`.list[data-list-id="${ids[0]}"] .list-head`);
    const last = (await page.locator(`.list[data-list-id="${ids[2]}"]`).boundingBox())!;
    const container = (await page.locator('.lists').boundingBox())!;
    // Grab the header beside the list's name (the name itself is a rename button), drop past the last list's middle.
    const headBox = (await head.boundingBox())!;
    await head.dragTo(page.locator('.lists'), {
      sourcePosition: { x: headBox.width - 4, y: headBox.height / 2 },
      targetPosition: { x: last.x + last.width * 0.8 - container.x, y: 20 },
    });
    const expected = [ids[1]!, ids[2]!, ids[0]!];
    await expect.poll(() => listsOnScreen(page)).toEqual(expected);
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).lists).toEqual(expected);
    await tab.close();
  });

  it('moves the focused card with Alt+arrow keys, keeps focus on it, and the API agrees', async () => {
    const { board, lists } = await seedBoard('Keyboard', [3, 1]);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    // A slow page is where the focus got lost: the render that moved the tile came after the one
    // that gave the focus back (before the fix: 2 failures in 10 runs at this rate; after: none in 12, nor in 15 at 12×).
    await (await tab.context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await openBoard(page, board.id);
    const [a, b] = lists as [(typeof lists)[0], (typeof lists)[0]];
    const card = a.cards[0]!;
    const focused = () => page.evaluate(() => Number(document.activeElement?.closest('[data-card-id]')?.dataset.cardId));

    await cardTile(page, card).locator('.card-open').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[a.id]).toEqual([a.cards[1]!, card, a.cards[2]!]);
    await expect.poll(focused).toBe(card);

    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[b.id]).toEqual([b.cards[0]!, card]);
    await expect.poll(focused).toBe(card);

    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[b.id]).toEqual([card, b.cards[0]!]);
    // Against the edge nothing happens (and nothing is sent).
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowUp');
    await page.waitForTimeout(200);
    expect((await boardFromApi(web, adminAuth, board.id)).cards).toEqual({ [a.id]: [a.cards[1]!, a.cards[2]!], [b.id]: [card, b.cards[0]!] });
    expect(await cardsOnScreen(page)).toEqual({ [a.id]: [a.cards[1]!, a.cards[2]!], [b.id]: [card, b.cards[0]!] });
    expect(await focused()).toBe(card);
    await tab.close();
  });
});

describe('roles and conflicts', () => {
  it('shows an observer the board read-only: no edit controls, nothing draggable', async () => {
    const observer = await makeUser(web.db, { name: 'Olive Observer' });
    const { board, lists } = await seedBoard('Read only', [2, 1], [{ userId: observer.id, role: 'observer' }]);
    const tab = await openTab(browser, web, { user: observer });
    const { page } = tab;
    await openBoard(page, board.id);
    await page.getByText('You are an observer on this board').waitFor();
    expect(await page.locator('li.card[data-card-id]').count()).toBe(3);
    expect(await page.locator('[draggable="true"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: '+ Add a card' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add list' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Settings' }).count()).toBe(0);
    expect(await page.locator('.list-name button').count()).toBe(0);

    // Alt+arrows do nothing for an observer.
    await cardTile(page, lists[0]!.cards[0]!).locator('.card-open').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await page.waitForTimeout(200);
    expect((await boardFromApi(web, adminAuth, board.id)).cards[lists[0]!.id]).toEqual(lists[0]!.cards);

    // The card dialog shows the card but offers nothing to change it.
    await cardTile(page, lists[0]!.cards[0]!).locator('.card-open').click();
    const dialog = page.getByRole('dialog', { name: 'Card 1.1' });
    await dialog.getByText('No description.').waitFor();
    expect(await dialog.getByLabel('Title').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /Delete|Archive/ }).count()).toBe(0);
    expect(await dialog.locator('input:not([disabled]):not([type=search]), select:not([disabled])').count()).toBe(0);
    await tab.close();
  });

  it('shows the server\'s 409 when the card changed under the dialog, then shows the latest card, and saving again works', async () => {
    const { board, lists } = await seedBoard('Conflicts', [1]);
    const cardId = lists[0]!.cards[0]!;
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?card=${cardId}`);
    await page.locator('[data-live="live"]').waitFor();
    const dialog = page.getByRole('dialog');
    // The title is edited in place: a click on the heading makes it a field.
    await dialog.getByRole('heading', { name: 'Card 1.1' }).click();
    const title = dialog.getByRole('textbox', { name: 'Title' });
    expect(await title.inputValue()).toBe('Card 1.1');

    // The person starts editing; meanwhile a script renames the card (its version moves on).
    await title.fill('Renamed in the page');
    const byScript = await web.call(adminAuth, 'PATCH', `/api/cards/${cardId}`, { title: 'Renamed by a script' });
    expect(byScript.status).toBe(200);
    // The live event reaches the board and the dialog (named by the card's title now); the person's typing is kept.
    await page.locator(`li.card[data-card-id="${cardId}"]`).getByText('Renamed by a script').waitFor();
    await page.getByRole('dialog', { name: 'Renamed by a script' }).waitFor();
    expect(await title.inputValue()).toBe('Renamed in the page');

    await title.press('Control+Enter');
    await dialog.getByRole('alert').filter({ hasText: /card: changed since version \d+ \(now \d+\); fetch it again\. The card below is the latest version\./ }).waitFor();
    // Refused, the text stays in the field to save again, over the latest card.
    expect(await title.inputValue()).toBe('Renamed in the page');
    expect((await web.call(adminAuth, 'GET', `/api/cards/${cardId}`)).json.title).toBe('Renamed by a script');

    // Resolved: saving again, over the latest card, succeeds.
    await title.press('Control+Enter');
    await dialog.getByRole('heading', { name: 'Renamed in the page' }).waitFor();
    expect((await web.call(adminAuth, 'GET', `/api/cards/${cardId}`)).json.title).toBe('Renamed in the page');
    await page.locator(`li.card[data-card-id="${cardId}"]`).getByText('Renamed in the page').waitFor();
    await tab.close();
  });

  it('says so when the open board is deleted, or when the person loses access to it', async () => {
    const member = await makeUser(web.db);
    const doomed = await seedBoard('Doomed', [1]);
    const shared = await seedBoard('Shared', [1], [{ userId: member.id, role: 'member' }]);
    const mine = await openTab(browser, web, { user: admin });
    const theirs = await openTab(browser, web, { user: member });
    await Promise.all([openBoard(mine.page, doomed.board.id), openBoard(theirs.page, shared.board.id)]);

    expect((await web.call(adminAuth, 'DELETE', `/api/boards/${doomed.board.id}`)).status).toBe(204);
    await mine.page.getByText('This board was deleted.').waitFor();
    expect(await mine.page.locator('li.card').count()).toBe(0);
    await mine.page.getByRole('link', { name: 'Back to your boards' }).waitFor();

    expect((await web.call(adminAuth, 'DELETE', `/api/boards/${shared.board.id}/members/${member.id}`)).status).toBe(204);
    await theirs.page.getByText('This board is not available').waitFor({ timeout: 10_000 });
    expect(await theirs.page.locator('li.card').count()).toBe(0);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('keeps a phone-width board within the screen: the lists scroll, not the page', async () => {
    const { board } = await seedBoard('Phone board', [2, 2, 2]);
    const tab = await openTab(browser, web, { user: admin, viewport: { width: 375, height: 740 } });
    await openBoard(tab.page, board.id);
    expect(await horizontalOverflow(tab.page)).toBeLessThanOrEqual(0);
    const lists = await tab.page.locator('.lists').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(lists.scroll).toBeGreaterThan(lists.client);
    await tab.close();
  });
});
