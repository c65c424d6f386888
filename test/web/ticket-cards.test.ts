import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { makeBoard, makeUser } from '../factories.js';
import { makeWorkspace } from '../workspace-factories.js';
import { launchBrowser, openTab, PHONE, sessionFor, startWebApp, type WebApp } from './browser.js';

// Tickets as cards (issue 45, part 4), as a support person does it: the board chosen in the
// console, a ticket arriving live on the board, a reply from the card, the card moved to Solved.
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  browser = await launchBrowser();
  web = await startWebApp();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('tickets as cards in a browser', () => {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', PHONE]] as const) {
    it(`a support person sends tickets to a board, replies from the card and moves it to Solved (${name})`, async () => {
      const owner = await makeUser(web.db);
      const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Support ${owner.id}` });
      const board = await makeBoard(web.db, owner.id, [], `Support desk ${name}`);
      const cookie = await sessionFor(web, owner.email, owner.password);
      const inbox = await web.call(cookie, 'POST', `/api/boards/${board.id}/lists`, { name: 'Inbox' });
      const solved = await web.call(cookie, 'POST', `/api/boards/${board.id}/lists`, { name: 'Solved' });
      const wst = (await runCommand(['workspace', 'token', '--workspace', String(workspace.id)], { db: web.db, config: web.config, events: web.app.events, effects: web.app.effects })).body.token as string;
      const token = { authorization: `Bearer ${wst}` };

      const tab = await openTab(browser, web, { user: owner, viewport });
      const { page } = tab;
      await page.goto(`/support/${workspace.id}/tickets`);
      const setting = page.getByRole('region', { name: 'Tickets on a board' });
      await setting.getByLabel('Board').selectOption({ label: board.name });
      await setting.getByLabel('New tickets go to').selectOption({ label: 'Inbox' });
      await setting.getByLabel('Solved list').selectOption({ label: 'Solved' });
      await setting.getByRole('button', { name: 'Send tickets to this board' }).click();
      await setting.getByText('New tickets now go to this board as cards.').waitFor();
      expect((await web.call(cookie, 'GET', `/agent/workspaces/${workspace.id}/tickets-board`)).json).toEqual({ boardId: board.id, listId: inbox.json.id, solvedListId: solved.json.id });

      // The board is open when the ticket arrives: its card appears live.
      await page.goto(`/boards/${board.id}`);
      await page.locator('[data-live="live"]').waitFor();
      const ticket = (await web.call(token, 'POST', '/v1/tickets', { subject: 'Invoice is wrong', description: 'Charged twice.', priority: 'high', requester: { email: 'ana@customer.example' } })).json;
      const tile = page.locator(`.list[data-list-id="${inbox.json.id}"] [data-card-id]`, { hasText: 'Invoice is wrong' });
      await tile.waitFor();
      await tile.click();

      const dialog = page.getByRole('dialog', { name: 'Invoice is wrong' });
      await dialog.getByRole('heading', { name: `Ticket #${ticket.id}` }).waitFor();
      await dialog.getByText('ana@customer.example').first().waitFor();
      await dialog.getByRole('textbox', { name: 'Reply to the customer' }).fill('We refunded the second charge.');
      await tab.checkContrast();
      await dialog.getByRole('button', { name: 'Reply to customer' }).click();
      await dialog.getByText('Sent to the customer.').waitFor();
      const comments = (await web.call(token, 'GET', `/v1/tickets/${ticket.id}/comments`)).json.comments;
      expect(comments).toEqual([expect.objectContaining({ body: 'We refunded the second charge.', public: true, author: 'team' })]);
      await dialog.locator('.comments').getByText('We refunded the second charge.').waitFor();
      // SHOTS=docs/screenshots writes the README's picture of a ticket's card.
      if (process.env.SHOTS && name === 'desktop') {
        // The description's ticket link, then the ticket's part of the card and the reply below it.
        await dialog.getByRole('link', { name: `#${ticket.id} in the support console` }).waitFor();
        await page.setViewportSize({ width: 1280, height: 1100 });
        await dialog.getByRole('heading', { name: `Ticket #${ticket.id}` }).evaluate((h: any) => h.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: `${process.env.SHOTS}/ticket-card.png` });
        await page.setViewportSize(viewport);
      }

      await dialog.getByRole('combobox', { name: 'List' }).selectOption({ label: 'Solved' });
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await expect.poll(async () => (await web.call(token, 'GET', `/v1/tickets/${ticket.id}`)).json.status, { timeout: 30_000 }).toBe('solved');
      await dialog.locator('.badge.status-solved').waitFor();
      await page.locator(`.list[data-list-id="${solved.json.id}"] [data-card-id]`, { hasText: 'Invoice is wrong' }).waitFor();
      await tab.close();
    }, 240_000);
  }
});
