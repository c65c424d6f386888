import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngOf } from '../answers/png.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { makeWorkspace } from '../workspace-factories.js';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const getComputedStyle: any;

/** #35 items 5 and 10 in Chromium: card covers, board colours, avatar pictures, empty states. */
let browser: Browser;
let web: WebApp;
const dir = mkdtempSync(path.join(tmpdir(), 'looks-'));
const picture = path.join(dir, 'photo.png');
const notes = path.join(dir, 'notes.txt');
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
  writeFileSync(picture, pngOf(480, 320, 8));
  writeFileSync(notes, 'plain words, not a picture');
  // The browser's first page load is paid here, not inside a test's timeout.
  const tab = await openTab(browser, web);
  await tab.page.goto('/', { timeout: 60_000 });
  await tab.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

const background = (page: Page, selector: string) => page.locator(selector).first().evaluate((el: any) => getComputedStyle(el).backgroundImage + ' ' + getComputedStyle(el).backgroundColor);

/** An <img> that the browser actually drew (loaded and decoded, not a broken-image box). */
const drawn = (page: Page, selector: string) => page.locator(selector).first().evaluate((img: any) => img.complete && img.naturalWidth > 0);

async function seed(name: string) {
  const user = await makeUser(web.db, { name });
  const auth = (await makeKey(web.db, user.id, { permission: 'write' })).auth;
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await web.call(auth, method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  return { user, auth, call };
}

describe('card covers', () => {
  it('a picture attached in the dialog becomes the cover on the tile, and comes off again', async () => {
    const { user, call } = await seed('Cora Cover');
    const board = await makeBoard(web.db, user.id, [], 'Covers');
    const list = await call('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const card = await call('POST', `/api/lists/${list.id}/cards`, { title: 'Redesign the landing page' });
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?card=${card.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Add files').setInputFiles([notes, picture]);
    await expect.poll(() => dialog.locator('[data-attachment-id]').count(), { timeout: 20_000 }).toBe(2);
    // Only the picture can be the cover.
    await expect.poll(() => dialog.getByRole('button', { name: /^Make .* the cover$/ }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Make photo.png the cover' }).click();
    await dialog.getByRole('button', { name: 'Remove photo.png as the cover' }).waitFor();
    const cover = (await call('GET', `/api/cards/${card.id}`)).coverAttachmentId;
    expect(cover).toBe((await call('GET', `/api/cards/${card.id}`)).attachments.find((a: { filename: string }) => a.filename === 'photo.png').id);
    await page.keyboard.press('Escape');
    const tile = page.locator(`li.card[data-card-id="${card.id}"]`);
    await tile.locator('img.card-cover').waitFor();
    await expect.poll(() => drawn(page, `li.card[data-card-id="${card.id}"] img.card-cover`)).toBe(true);
    expect(await tile.locator('img.card-cover').getAttribute('src')).toBe(`/api/attachments/${cover}/download`);

    // Taken off from the dialog: the tile loses it (live, through the board's re-read).
    await tile.getByRole('button', { name: 'Redesign the landing page' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove photo.png as the cover' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make photo.png the cover' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => tile.locator('img.card-cover').count()).toBe(0);
    await tab.close();
  });
});

describe('board colours', () => {
  it('are chosen in board settings and shown on the tile and behind the lists', async () => {
    const { user, call } = await seed('Bea Colour');
    const board = await makeBoard(web.db, user.id, [], 'Painted board');
    await call('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('.list[data-list-id]').first().waitFor();
    const blue = await background(page, 'main.board-page');
    expect(await page.locator('main.board-page').getAttribute('data-board-color')).toBe('blue');

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog');
    // A radio group with a name for each colour, reachable by keyboard.
    await settings.getByRole('radio', { name: 'Ocean (gradient)' }).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('main.board-page').getAttribute('data-board-color')).toBe('ocean');
    expect(await background(page, 'main.board-page')).toContain('linear-gradient');
    expect(await background(page, 'main.board-page')).not.toBe(blue);
    expect((await call('GET', `/api/boards/${board.id}`)).color).toBe('ocean');

    await page.goto('/boards');
    const tile = page.locator(`a.board-tile[href="/boards/${board.id}"]`);
    await tile.waitFor();
    expect(await tile.getAttribute('data-board-color')).toBe('ocean');
    expect(await background(page, `a.board-tile[href="/boards/${board.id}"]`)).toContain('linear-gradient');
    await tab.close();
  });
});

describe('avatar pictures', () => {
  it('uploaded on the account page show there and on the cards of the person, and can be removed', async () => {
    const { user, call } = await seed('Ava Picture');
    const board = await makeBoard(web.db, user.id, [], 'Faces');
    const list = await call('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const card = await call('POST', `/api/lists/${list.id}/cards`, { title: 'Mine' });
    await call('PUT', `/api/cards/${card.id}/members/${user.id}`);
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/settings/account');
    const section = page.getByRole('region', { name: 'Picture' });
    await section.locator('span.avatar.large').waitFor(); // initials first
    await section.getByLabel('Choose a picture').setInputFiles(notes);
    await section.getByText(/not a picture/).waitFor();
    await section.getByLabel('Choose a picture').setInputFiles(picture);
    await section.getByText('Picture saved: it shows wherever you do.').waitFor();
    await expect.poll(() => drawn(page, 'img.avatar.large')).toBe(true);

    await page.goto(`/boards/${board.id}`);
    const face = page.locator(`li.card[data-card-id="${card.id}"] img.avatar`);
    await face.waitFor();
    expect(await face.getAttribute('alt')).toBe('Ava Picture');
    await expect.poll(() => drawn(page, `li.card[data-card-id="${card.id}"] img.avatar`)).toBe(true);

    await page.goto('/settings/account');
    await page.getByRole('button', { name: 'Remove picture' }).click();
    await page.getByText('Picture removed: your initials show again.').waitFor();
    await page.goto(`/boards/${board.id}`);
    await page.locator(`li.card[data-card-id="${card.id}"] span.avatar[aria-label="Ava Picture"]`).waitFor();
    await tab.close();
  });
});

describe('empty states', () => {
  it('say what to do first: no boards, a board without lists, an empty list, no keys, no conversations', async () => {
    const user = await makeUser(web.db, { name: 'Newt Empty' }); // no key: the keys page is empty too
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/boards');
    await expect.poll(() => page.getByTestId('empty-boards').innerText()).toMatch(/No boards yet\.[\s\S]*Create your first board below/);

    await page.getByRole('region', { name: 'New board' }).getByLabel('Name').fill('First board');
    await page.getByRole('button', { name: 'Create board' }).click();
    await expect.poll(() => page.getByTestId('empty-board').innerText()).toMatch(/This board has no lists yet\.[\s\S]*under “New list”/);
    await page.getByLabel('New list').fill('To do');
    await page.getByRole('button', { name: 'Add list' }).click();
    await expect.poll(() => page.getByTestId('empty-list').innerText()).toBe('No cards yet. Add the first with “+ Add a card”, or drag one here.');
    expect(await page.getByTestId('empty-board').count()).toBe(0);

    await page.goto('/settings/keys');
    await expect.poll(() => page.getByTestId('empty-keys').innerText()).toMatch(/No keys yet\.[\s\S]*Create one above/);

    const workspace = await makeWorkspace(web.db, { ownerId: user.id, name: 'Help desk' });
    await page.goto(`/support/${workspace.id}/conversations`);
    await expect.poll(() => page.getByTestId('empty-conversations').innerText()).toMatch(/No conversations yet\.[\s\S]*Try it/);
    await tab.close();
  });
});
