import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWorkspace, ask } from '../answers/answer-fixtures.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { makeWorkspace } from '../workspace-factories.js';
import { launchBrowser, openTab, sessionFor, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const document: any;

/** The rough edges a new user hit (#35), each clicked through in Chromium. */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
  // The first page a browser loads pays for its start (seconds on a loaded machine): paid here, not in a test's time.
  const warm = await openTab(browser, web);
  await warm.page.goto('/signin');
  await warm.page.getByLabel('Password').waitFor({ timeout: 60_000 });
  await warm.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('"+ Add a card"', () => {
  it('puts the caret in the title box every time it opens, not only the first time per page load', async () => {
    const user = await makeUser(web.db);
    const auth = (await makeKey(web.db, user.id)).auth;
    const board = await makeBoard(web.db, user.id, [], 'Focus board');
    const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    const column = page.locator(`.list[data-list-id="${list.id}"]`);

    for (const title of ['First by mouse', 'Second by mouse', 'Third by keyboard']) {
      const open = column.getByRole('button', { name: '+ Add a card' });
      if (title.includes('keyboard')) {
        await open.focus();
        await page.keyboard.press('Enter');
      } else {
        await open.click();
      }
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Card title');
      await page.keyboard.type(title);
      await page.keyboard.press('Enter');
      await column.getByText(title).waitFor();
      await page.keyboard.press('Escape');
      await column.getByRole('button', { name: '+ Add a card' }).waitFor();
    }
    await tab.close();
  });
});

describe('one-time secrets', () => {
  it('each stays on the page until it is dismissed: a new answer key does not replace the workspace token', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Secrets ${owner.id}` });
    const tab = await openTab(browser, web, { user: owner });
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/access`);
    await page.getByRole('button', { name: 'Generate token' }).click();
    const token = page.getByTestId('new-secret').filter({ hasText: /^wst_/ });
    await token.waitFor();
    const tokenValue = await token.innerText();

    await page.getByLabel('New key name').fill('Website widget');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-secret').filter({ hasText: /^ans_/ }).waitFor();
    expect(await page.getByTestId('new-secret').allInnerTexts()).toContain(tokenValue);

    // Dismissed one at a time: the other one stays.
    await page.getByRole('region', { name: /Workspace token/ }).getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByTestId('new-secret').allInnerTexts()).toEqual([expect.stringMatching(/^ans_/)]);

    // The same on the personal API keys page: two keys made in a row, both shown.
    await page.goto('/settings/keys');
    for (const name of ['first script', 'second script']) {
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('heading', { name: `Key “${name}” created` }).waitFor();
    }
    expect(await page.getByTestId('new-token').count()).toBe(2);
    await tab.close();
  });
});

describe('a renamed person in the activity feed', () => {
  it('reads as one person: the current name on what they did before and after the rename', async () => {
    const ana = await makeUser(web.db, { name: 'Ana Owner' });
    const bob = await makeUser(web.db, { name: 'Bob Before' });
    const board = await makeBoard(web.db, ana.id, [{ userId: bob.id, role: 'member' }], 'Rename board');
    const bobKey = (await makeKey(web.db, bob.id)).auth;
    const list = (await web.call(bobKey, 'POST', `/api/boards/${board.id}/lists`, { name: 'Doing' })).json;
    await web.call(bobKey, 'POST', `/api/lists/${list.id}/cards`, { title: 'Written before' });
    const bobSession = await sessionFor(web, bob.email, bob.password);
    expect((await web.call({ cookie: bobSession.cookie }, 'PATCH', '/account', { name: 'Robert After' })).status).toBe(200);
    await web.call(bobKey, 'POST', `/api/lists/${list.id}/cards`, { title: 'Written after' });

    // The API's log says the current name too (the row keeps the name it was written with).
    const log = await web.call((await makeKey(web.db, ana.id)).auth, 'GET', `/api/boards/${board.id}/activity?limit=50`);
    const bobs = log.json.activities.filter((a: any) => a.actor.userId === bob.id);
    expect(bobs.length).toBe(3);
    expect(new Set(bobs.map((a: any) => a.actor.name))).toEqual(new Set(['Robert After']));

    const tab = await openTab(browser, web, { user: ana });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await page.getByRole('button', { name: 'Activity' }).click();
    const panel = page.getByRole('complementary', { name: 'Activity' });
    await panel.getByText('Written before').waitFor();
    const lines = await panel.locator('li .sentence').allInnerTexts();
    expect(lines.filter((l) => l.includes('Written'))).toEqual([expect.stringMatching(/^Robert After /), expect.stringMatching(/^Robert After /)]);
    expect(lines.join('\n')).not.toContain('Bob Before');
    await tab.close();
  });
});

describe('conversations and tickets', () => {
  it('are titled by the customer\'s first message, never by an id', async () => {
    const w = await answerWorkspace(web);
    const ref = crypto.randomUUID();
    expect((await ask(web, w.token, { message: 'How do I reset my password?', conversationRef: ref, channel: 'chat' })).statusCode).toBe(200);
    const second = await ask(web, w.token, { message: 'And can I export my data?', conversationRef: ref, channel: 'chat' });
    expect(second.statusCode).toBe(200);
    const conversationId = second.json().conversationId as string;
    const { token } = (await w.admin('workspace', 'token', '--workspace', String(w.workspaceId))) as { token: string };
    const ticket = await web.call({ authorization: `Bearer ${token}` }, 'POST', '/v1/tickets', { subject: 'Password trouble', requester: { email: 'c@example.com' }, conversationId });
    expect(ticket.status).toBe(201);

    const tab = await openTab(browser, web, { user: w.owner });
    const { page } = tab;
    await page.goto(`/support/${w.workspaceId}/conversations`);
    const title = page.getByRole('rowheader').getByRole('link');
    await expect.poll(() => title.innerText().catch(() => '')).toBe('How do I reset my password?');
    await title.click();
    await page.getByRole('heading', { level: 2, name: 'How do I reset my password?' }).waitFor();
    const texts = await page.locator('main').innerText();
    expect(texts).not.toContain(ref);
    expect(texts).not.toContain(conversationId);

    await page.goto(`/support/${w.workspaceId}/tickets/${ticket.json.id}`);
    await page.getByRole('heading', { name: /Password trouble/ }).waitFor();
    await expect.poll(() => page.locator('.thread > li').count()).toBe(2);
    expect(await page.locator('main').innerText()).not.toContain(ref);
    await tab.close();
  });
});

describe('forms that close after use', () => {
  it('"New label" and "New field" close once they made their label or field', async () => {
    const user = await makeUser(web.db);
    const auth = (await makeKey(web.db, user.id)).auth;
    const board = await makeBoard(web.db, user.id, [], 'Forms board');
    const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'A card' })).json;
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await page.locator(`li.card[data-card-id="${card.id}"]`).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');

    await dialog.getByRole('button', { name: 'Edit labels' }).click();
    await dialog.getByText('New label').click();
    const labelForm = dialog.locator('details').filter({ has: page.getByText('New label') });
    await labelForm.getByLabel('Name').fill('Urgent');
    await labelForm.getByRole('button', { name: 'Create label' }).click();
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Urgent' }).isChecked().catch(() => false)).toBe(true);
    await expect.poll(() => labelForm.evaluate((d: any) => d.open)).toBe(false);

    await dialog.getByText('New field').click();
    const fieldForm = dialog.locator('details').filter({ has: page.getByText('New field') });
    await fieldForm.getByLabel('Name').fill('Estimate');
    await fieldForm.getByRole('button', { name: 'Add field' }).click();
    await dialog.getByLabel('Estimate').waitFor();
    await expect.poll(() => fieldForm.evaluate((d: any) => d.open)).toBe(false);
    await tab.close();
  });
});

describe('the members dialog', () => {
  it('moves an accepted invitation from "Pending invitations" to the members while it is open', async () => {
    const admin = await makeUser(web.db, { name: 'Ada Admin' });
    const board = await makeBoard(web.db, admin.id, [], 'Live members');
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await page.getByRole('button', { name: /^Members/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Members' });
    const email = `carla-${board.id}@example.com`;
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const link = (await dialog.getByTestId('invitation-link').textContent())!.trim();
    await dialog.locator('li.invitation').filter({ hasText: email }).waitFor();

    // Carla joins through the link elsewhere; the dialog stays open all along.
    const token = link.split('/join/')[1]!;
    const joined = await web.call({}, 'POST', `/auth/join/${token}`, { name: 'Carla Joined', password: 'carla joins boards' });
    expect(joined.status).toBe(201);
    await dialog.getByRole('rowheader', { name: /Carla Joined/ }).waitFor();
    await expect.poll(() => dialog.locator('li.invitation').count()).toBe(0);
    await tab.close();
  });
});

describe('wording', () => {
  it('messages read as sentences; a private webhook address is explained beside the URL', async () => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web);
    const { page } = tab;
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText().catch(() => '')).toBe('Wrong e-mail or password.');
    await tab.close();

    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Wording ${owner.id}` });
    const signedIn = await openTab(browser, web, { user: owner });
    await signedIn.page.goto(`/support/${workspace.id}/webhooks`);
    await signedIn.page.getByLabel('URL').fill('http://10.0.0.8/hooks');
    await signedIn.page.getByRole('button', { name: 'Add endpoint' }).click();
    const error = signedIn.page.locator('#endpoint-url-error');
    await expect.poll(() => error.innerText().catch(() => '')).toMatch(/^This address is on a private network \(10\.0\.0\.8 .*\)\.$/);
    expect(await signedIn.page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await signedIn.close();
  });

  it.each(['/api/docs', '/v1/docs'])('%s shows the product\'s name and its MIT licence, not Fastify\'s logo or "Proprietary"', async (docs) => {
    const document = (await web.call({}, 'GET', `${docs}/openapi.json`)).json;
    expect(document.info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/license/mit' });
    const tab = await openTab(browser, web);
    const { page } = tab;
    await page.goto(`${docs}/`);
    await page.locator('.swagger-ui .information-container .title').waitFor({ timeout: 15_000 });
    const logo = page.locator('.topbar a.link img');
    await expect.poll(() => logo.getAttribute('src').catch(() => '')).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from((await logo.getAttribute('src'))!.split(',')[1]!, 'base64').toString();
    expect(svg).toContain('Taskboard API');
    expect(await page.title()).toMatch(/— Taskboard$/);
    await page.getByRole('link', { name: 'MIT' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Proprietary');
    await tab.close();
  });
});

describe('attachments', () => {
  it('upload as soon as they are picked (no Upload button), with a progress bar, and a picture shows as a thumbnail', async () => {
    const user = await makeUser(web.db);
    const auth = (await makeKey(web.db, user.id)).auth;
    const board = await makeBoard(web.db, user.id, [], 'Files board');
    const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'With a picture' })).json;
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    await page.locator(`li.card[data-card-id="${card.id}"]`).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Attachments' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    // Whether a progress bar was shown while the file went up (it may be brief).
    await page.evaluate(() => {
      const w = globalThis as unknown as { sawProgress: boolean; MutationObserver: any };
      w.sawProgress = false;
      new w.MutationObserver(() => {
        if (document.querySelector('dialog progress')) w.sawProgress = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    await dialog.getByLabel('Add files').setInputFiles([
      { name: 'screen.png', mimeType: 'image/png', buffer: png },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Call at nine.') },
    ]);
    await dialog.getByRole('status').filter({ hasText: 'Uploaded notes.txt.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);
    const stored = (await web.call(auth, 'GET', `/api/cards/${card.id}`)).json.attachments as { filename: string }[];
    expect(stored.map((a) => a.filename).sort()).toEqual(['notes.txt', 'screen.png']);
    const thumb = dialog.locator('li', { hasText: 'screen.png' }).locator('img.thumb');
    await expect.poll(() => thumb.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(1);
    expect(await dialog.locator('li', { hasText: 'notes.txt' }).locator('img').count()).toBe(0);
    await tab.close();
  });
});

describe('keyboard moves', () => {
  it('are announced in a live region: the card, its list and its place', async () => {
    const user = await makeUser(web.db);
    const auth = (await makeKey(web.db, user.id)).auth;
    const board = await makeBoard(web.db, user.id, [], 'Said board');
    const todo = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    const done = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'Done' })).json;
    const first = (await web.call(auth, 'POST', `/api/lists/${todo.id}/cards`, { title: 'Write the brief' })).json;
    await web.call(auth, 'POST', `/api/lists/${todo.id}/cards`, { title: 'Book the room' });
    await web.call(auth, 'POST', `/api/lists/${done.id}/cards`, { title: 'Hire the band' });
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    const said = page.getByTestId('move-announcement');
    expect(await said.getAttribute('aria-live')).toBe('polite');
    await page.locator(`li.card[data-card-id="${first.id}"] .card-open`).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => said.innerText()).toBe('Moved “Write the brief” to To do, position 2 of 2.');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => said.innerText()).toBe('Moved “Write the brief” to Done, position 2 of 2.');
    await tab.close();
  });
});

describe('avatars', () => {
  it('have a colour per person, the same on every card', async () => {
    const ana = await makeUser(web.db, { name: 'Ana Owner' });
    const bob = await makeUser(web.db, { name: 'Bob Builder' });
    const auth = (await makeKey(web.db, ana.id)).auth;
    const board = await makeBoard(web.db, ana.id, [{ userId: bob.id, role: 'member' }], 'Faces board');
    const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    for (const title of ['One', 'Two']) {
      const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title })).json;
      for (const who of [ana, bob]) expect((await web.call(auth, 'PUT', `/api/cards/${card.id}/members/${who.id}`)).status).toBeLessThan(300);
    }
    const tab = await openTab(browser, web, { user: ana });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.locator('[data-live="live"]').waitFor();
    const colour = (name: string) =>
      page.locator(`.avatar[title="${name}"]`).evaluateAll((els: any[]) => els.map((el) => (globalThis as any).getComputedStyle(el).backgroundColor));
    await expect.poll(async () => (await colour('Ana Owner')).length).toBe(2);
    const anas = await colour('Ana Owner');
    const bobs = await colour('Bob Builder');
    expect(new Set(anas).size).toBe(1);
    expect(new Set(bobs).size).toBe(1);
    if (ana.id % 8 !== bob.id % 8) expect(anas[0]).not.toBe(bobs[0]);
    await tab.close();
  });
});
