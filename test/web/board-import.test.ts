import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { TRELLO_FIXTURES } from '../boards/transfer/trello-fixtures.js';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

/** Boards → Import from Trello in headless Chromium: choose the export, read the preview, import; a board's settings → Export. */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('Import from Trello', () => {
  it('previews what a real export will create and leave out, creates nothing until Import, then opens the new board', async () => {
    const user = await makeUser(web.db, { name: 'Importing Ivy' });
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    page.setDefaultTimeout(30_000);
    await page.goto('/boards');
    const section = page.getByTestId('import-board');
    await section.getByLabel('Export file').setInputFiles(path.join(TRELLO_FIXTURES, 'gocd-test-drive.json'));
    const preview = section.getByTestId('import-preview');
    await preview.waitFor();
    expect(await preview.locator('[data-count=lists]').textContent()).toBe('18');
    expect(await preview.locator('[data-count=cards]').textContent()).toBe('122');
    expect(await preview.locator('[data-count=comments]').textContent()).toBe('93');
    expect(await preview.locator('[data-count=checklists]').textContent()).toBe('14');
    expect(await preview.getByTestId('import-unmapped').textContent()).toContain('history (actions other than comments');
    // The preview created nothing.
    expect(await web.db.prisma.boardMember.count({ where: { userId: user.id } })).toBe(0);

    await preview.getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/\/boards\/\d+$/);
    await page.locator('.list[data-list-id]').first().waitFor();
    const boardId = Number(/\/boards\/(\d+)$/.exec(page.url())![1]);
    const board = await web.db.prisma.board.findUniqueOrThrow({ where: { id: boardId }, include: { lists: true } });
    expect(board.name).toBe('Test Drive');
    expect(board.lists).toHaveLength(18);
    expect(await page.locator('.list[data-list-id]').count()).toBe(6); // the 12 archived lists are not shown
    await tab.close();
  });

  it("matches the export's people in the preview (a select each: proposed, another person, or left out); comments keep their author and date, attachments are links", { timeout: 180_000 }, async () => {
    // Issue #46 item 9. Colleagues the importer shares a board with: one with a Trello member's full name, one whose
    // address is a Trello username, one the importer picks by hand.
    const domain = `import-${Date.now()}.example`;
    const user = await makeUser(web.db, { name: 'Importing Ivy', email: `ivy@${domain}` });
    const aravind = await makeUser(web.db, { name: 'Aravind SV', email: `av@${domain}` });
    const marques = await makeUser(web.db, { name: 'Marques here', email: `marquesfarques@${domain}` });
    const louda = await makeUser(web.db, { name: 'Louda P.', email: `lp@${domain}` });
    await makeBoard(web.db, user.id, [aravind, marques, louda].map((u) => ({ userId: u.id, role: 'member' as const })));
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    page.setDefaultTimeout(30_000);
    await page.goto('/boards');
    const section = page.getByTestId('import-board');
    await section.getByLabel('Export file').setInputFiles(path.join(TRELLO_FIXTURES, 'gocd-test-drive.json'));
    const people = section.getByTestId('import-people');
    await people.waitFor();
    // Proposed: by name and by username; nobody here is Louda or kiera yet.
    expect(await people.getByLabel('Aravind SV (@arvind_sv)').inputValue()).toBe(String(aravind.id));
    expect(await people.getByLabel('Marques Lee (@marquesfarques)').inputValue()).toBe(String(marques.id));
    expect(await people.getByLabel('Louda Peña (@loudapena)').inputValue()).toBe('');
    expect(await people.getByLabel('kiera (@kiera_radman)').inputValue()).toBe('');
    expect(await people.getByLabel('Aravind SV (@arvind_sv)').locator('option:checked').textContent()).toContain('proposed: same name');
    const matched = section.locator('[data-count=matchedMembers]');
    expect(await matched.textContent()).toBe('2');
    // The importer picks Louda's account by hand, and leaves Marques out after all.
    await people.getByLabel('Louda Peña (@loudapena)').selectOption(String(louda.id));
    await people.getByLabel('Marques Lee (@marquesfarques)').selectOption('');
    await expect.poll(() => matched.textContent()).toBe('2');
    // Uploaded files are listed among what is not carried over as files.
    expect(await section.getByTestId('import-unmapped').textContent()).toContain('uploaded files (not copied: kept as links to Trello, which may need a Trello sign-in)');
    await tab.checkContrast();

    await section.getByTestId('import-preview').getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/\/boards\/\d+$/);
    const boardId = Number(/\/boards\/(\d+)$/.exec(page.url())![1]);
    const title = 'PaC: Flow 1 - Find material in repo';
    const card = await web.db.prisma.card.findFirstOrThrow({ where: { boardId, title }, include: { comments: { orderBy: { id: 'asc' } }, attachments: true } });
    const tile = page.locator(`li.card[data-card-id="${card.id}"]`);
    await tile.locator('.card-open').click();
    const dialog = page.getByRole('dialog');
    // kiera was left out: her comment is hers by name, marked in its header; Aravind's is Aravind's, on Trello's date.
    const comments = dialog.locator('ol.comments > li');
    await expect.poll(() => comments.count()).toBe(2);
    const heads = await comments.locator('.comment-head strong').allTextContents();
    expect(heads.sort()).toEqual(['Aravind SV', 'kiera (from Trello)']);
    expect(await comments.locator('.comment-text').allTextContents()).not.toContainEqual(expect.stringContaining('from Trello'));
    // Both are marked as imported in their header: Aravind's words came in with the file, matched by the importer.
    expect(await comments.locator('.comment-head .comment-imported').allTextContents()).toEqual([' · imported', ' · imported']);
    expect(card.comments.map((c) => [c.authorId, c.createdAt.toISOString().slice(0, 4)])).toEqual(
      expect.arrayContaining([[aravind.id, '2019'], [null, '2019']]),
    );
    // The uploads are links to Trello, in the attachments section, marked as such.
    const link = dialog.locator('ul.attachments a', { hasText: 'Screen Shot 2019-05-29 at 12.40.17 PM.png' });
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/trello-attachments\.s3\.amazonaws\.com\/.+Screen_Shot_2019-05-29/);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await dialog.locator('ul.attachments li', { hasText: 'Screen Shot 2019-05-29 at 12.40.17 PM.png' }).textContent()).toContain('on Trello — may need a Trello sign-in');
    await tab.checkContrast();
    // Louda's comments are by the account picked for her; Marques, left out, joined nothing.
    const loudas = await web.db.prisma.comment.findMany({ where: { card: { boardId }, authorId: louda.id } });
    expect(loudas.length).toBeGreaterThan(0);
    expect(await web.db.prisma.boardMember.count({ where: { boardId, userId: marques.id } })).toBe(0);
    await tab.close();
  });

  it('says what is wrong with a file that is not an export, and creates nothing', async () => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/boards');
    const section = page.getByTestId('import-board');
    await section.getByLabel('Export file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
    await expect.poll(() => section.getByRole('alert').textContent()).toMatch(/neither a Trello board export/);
    expect(await section.getByTestId('import-preview').count()).toBe(0);
    expect(await web.db.prisma.boardMember.count({ where: { userId: user.id } })).toBe(0);
    await tab.close();
  });

  it("board settings offer the board's JSON and CSV, which download with the session", async () => {
    const user = await makeUser(web.db);
    const board = await makeBoard(web.db, user.id, [], 'Exported board');
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.getByRole('button', { name: 'Settings' }).click();
    const links = page.getByTestId('board-export');
    for (const [name, file] of [['Export JSON', `board-${board.id}.json`], ['Export CSV', `board-${board.id}.csv`]] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), links.getByRole('link', { name }).click()]);
      expect(download.suggestedFilename()).toBe(file);
      const stream = await download.createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (file.endsWith('.json')) expect(JSON.parse(text).board.name).toBe('Exported board');
      else expect(text.startsWith('List,Title,')).toBe(true);
    }
    await tab.close();
  });

  it('board settings add cards from a CSV: the columns mapped by the header row, previewed, changed, then added to the board on screen', async () => {
    const user = await makeUser(web.db);
    const board = await makeBoard(web.db, user.id, [], 'CSV board');
    await web.db.prisma.list.create({ data: { boardId: board.id, name: 'Todo', position: 0 } });
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    page.setDefaultTimeout(30_000);
    await page.goto(`/boards/${board.id}`);
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByTestId('csv-import');
    const csv = 'Task,Stage,Note\nWrite the plan,Todo,first\nShip it,Done,second\n';
    await section.getByLabel('CSV file').setInputFiles({ name: 'cards.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // "Task" names no card field: nothing is the title yet, and the server says so.
    await expect.poll(() => section.getByRole('alert').textContent()).toMatch(/no column is the card title/);
    expect(await section.getByTestId('csv-preview').count()).toBe(0);
    await tab.close();

    // Named after the fields, the columns map themselves; one is then changed by hand.
    const second = await openTab(browser, web, { user });
    second.page.setDefaultTimeout(30_000);
    await second.page.goto(`/boards/${board.id}`);
    await second.page.getByRole('button', { name: 'Settings' }).click();
    const again = second.page.getByTestId('csv-import');
    await again.getByLabel('CSV file').setInputFiles({ name: 'cards.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.replace('Task', 'Title')) });
    const preview = again.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await preview.locator('[data-count=cards]').textContent()).toBe('2');
    expect(await preview.textContent()).not.toContain('new lists: Done');
    await preview.getByLabel('Stage').selectOption('list');
    await expect.poll(() => preview.textContent()).toContain('new lists: Done');
    await preview.getByRole('button', { name: 'Add 2 cards' }).click();
    await again.getByRole('status').waitFor();
    expect(await again.getByRole('status').textContent()).toBe('Added 2 cards.');
    const cards = await web.db.prisma.card.findMany({ where: { boardId: board.id }, include: { list: true }, orderBy: { id: 'asc' } });
    expect(cards.map((c) => [c.title, c.list.name])).toEqual([['Write the plan', 'Todo'], ['Ship it', 'Done']]);
    // The open board shows them without a reload (its event stream).
    await second.page.keyboard.press('Escape');
    await second.page.locator('li.card', { hasText: 'Ship it' }).waitFor();
    await second.page.locator('li.card', { hasText: 'Write the plan' }).waitFor();
    await second.close();
  });
});
