import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { horizontalOverflow, launchBrowser, openTab, sessionFor, startWebApp, type WebApp } from './browser.js';

/** The web app in headless Chromium: first run, signing in, sessions, site administration, phone width. */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('first run', () => {
  it('creates the first site admin from the page, then refuses a second set-up with the server\'s message', async () => {
    const fresh = await startWebApp(); // no user at all: the app offers its first-run page
    try {
      const first = await openTab(browser, fresh);
      const late = await openTab(browser, fresh);
      // Two people open the first-run page before either submits it.
      for (const { page } of [first, late]) {
        await page.goto('/');
        await page.waitForURL(/\/setup$/);
        await page.getByRole('heading', { name: 'Welcome' }).waitFor();
      }
      await first.page.getByLabel('Name').fill('Ada Admin');
      await first.page.getByLabel('E-mail').fill('ada@example.com');
      await first.page.getByLabel(/^Password/).fill('correct horse battery');
      await first.page.getByRole('button', { name: 'Create administrator' }).click();
      await first.page.waitForURL(/\/boards$/);
      await first.page.getByRole('heading', { name: 'Boards' }).waitFor();
      // A site admin's navigation has the users page.
      await first.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).waitFor();
      expect(await first.page.locator('.me').textContent()).toContain('Ada Admin');

      await late.page.getByLabel('E-mail').fill('mallory@example.com');
      await late.page.getByLabel(/^Password/).fill('another long password');
      await late.page.getByRole('button', { name: 'Create administrator' }).click();
      await late.page.getByRole('alert').filter({ hasText: 'setup: the site already has users; sign in instead' }).waitFor();
      expect(late.page.url()).toMatch(/\/setup$/);

      // The server agrees: set-up is over, and /setup now leads to signing in.
      expect((await fresh.call({}, 'GET', '/auth/setup')).json).toEqual({ needed: false });
      expect((await fresh.call({}, 'POST', '/auth/setup', { email: 'eve@example.com', password: 'long enough pw' })).status).toBe(409);
      expect(await fresh.db.prisma.user.count()).toBe(1);
      await late.page.goto('/setup');
      await late.page.waitForURL(/\/signin/);
      await late.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await Promise.all([first.close(), late.close()]);
    } finally {
      await fresh.close();
    }
  });
});

describe('signing in', () => {
  it('shows the server\'s message for a wrong password, then returns to the page asked for', async () => {
    const user = await makeUser(web.db, { name: 'Grace Hopper' });
    const tab = await openTab(browser, web);
    const { page } = tab;
    await page.goto('/settings/keys');
    await page.waitForURL(/\/signin\?next=%2Fsettings%2Fkeys$/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong e-mail or password' }).waitFor();

    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings\/keys$/);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.locator('.me').textContent()).toContain('Grace Hopper');

    // Signing out ends the session on the server, not just in the page.
    const cookie = (await tab.context.cookies()).find((c) => c.name === 'tb_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/);
    expect((await web.call({ cookie: `tb_session=${cookie.value}` }, 'GET', '/auth/me')).status).toBe(401);
    await tab.close();
  });

  it('shows a blocked account\'s refusal from the server', async () => {
    const user = await makeUser(web.db);
    await web.db.prisma.user.update({ where: { id: user.id }, data: { status: 'blocked' } });
    const tab = await openTab(browser, web);
    await tab.page.goto('/signin');
    await tab.page.getByLabel('E-mail').fill(user.email);
    await tab.page.getByLabel('Password').fill(user.password);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('alert').filter({ hasText: 'this account is blocked' }).waitFor();
    await tab.close();
  });

  it('shows the sign-in page, with a notice, when the session expires under an open page; signing in again returns there', async () => {
    const user = await makeUser(web.db);
    const board = await makeBoard(web.db, user.id, [], 'Expiry board');
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/boards');
    await page.getByRole('link', { name: /Expiry board/ }).waitFor();

    // The session runs out on the server (as SESSION_TTL_HOURS would make it).
    await web.db.prisma.session.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const [cookie] = (await tab.context.cookies()).filter((c) => c.name === 'tb_session');
    await expect.poll(async () => (await web.call({ cookie: `tb_session=${cookie!.value}` }, 'GET', '/auth/me')).status).toBe(401);

    await page.getByRole('link', { name: /Expiry board/ }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    expect(page.url()).toContain(`/signin?next=${encodeURIComponent(`/boards/${board.id}`)}`);
    // Nothing of the board page is left half-drawn behind the sign-in form.
    expect(await page.locator('.board-page, header.top').count()).toBe(0);

    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/boards/${board.id}$`));
    await page.getByRole('heading', { name: 'Expiry board' }).waitFor();
    await tab.close();
  });

  it('takes an open board page to the sign-in page when the session is ended elsewhere', async () => {
    const user = await makeUser(web.db);
    const board = await makeBoard(web.db, user.id, [], 'Logged out elsewhere');
    const tab = await openTab(browser, web, { user });
    await tab.page.goto(`/boards/${board.id}`);
    await tab.page.locator('[data-live="live"]').waitFor();
    // Every session of the user ends (sign-out on another device, or an administrator).
    await web.db.prisma.session.deleteMany({ where: { userId: user.id } });
    await tab.page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    await tab.page.getByText('Your session has ended').waitFor();
    await tab.close();
  });
});

describe('site administration', () => {
  it('lets a site admin create, block, unblock and delete users, and the server enforces each', async () => {
    const admin = await makeUser(web.db, { siteAdmin: true, name: 'Site Admin' });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto('/site-admin');
    await page.getByRole('heading', { name: 'Users' }).waitFor();

    const email = `newcomer-${Date.now()}@example.com`;
    await page.getByLabel('Name', { exact: true }).fill('New Comer');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel(/Initial password/).fill('a fine password');
    await page.getByRole('button', { name: 'Create user' }).click();
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByText('active', { exact: true }).waitFor();
    expect((await sessionFor(web, email, 'a fine password')).cookie).toMatch(/^tb_session=/);

    // The same address again: the server's 409 is shown inline.
    await page.getByLabel('E-mail').fill(email.toUpperCase());
    await page.getByLabel(/Initial password/).fill('a fine password');
    await page.getByRole('button', { name: 'Create user' }).click();
    // The server's 409 is shown beside the E-mail field, in the user's words.
    await page.locator('#new-user-email-error').filter({ hasText: 'Already registered' }).waitFor();

    await page.getByRole('button', { name: `Block ${email}` }).click();
    await row.getByText('blocked', { exact: true }).waitFor();
    expect((await web.call({}, 'POST', '/auth/login', { email, password: 'a fine password' })).status).toBe(403);

    await page.getByRole('button', { name: `Unblock ${email}` }).click();
    await row.getByText('active', { exact: true }).waitFor();
    expect((await web.call({}, 'POST', '/auth/login', { email, password: 'a fine password' })).status).toBe(200);

    await page.getByRole('button', { name: `Delete ${email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this user?' });
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    // Deleting frees the address: the row keeps the name, under a placeholder address.
    await page.getByRole('row').filter({ hasText: 'New Comer' }).getByText('deleted', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect((await web.call({}, 'POST', '/auth/login', { email, password: 'a fine password' })).status).toBe(401);
    // The admin cannot block or delete themselves from the page.
    const mine = page.getByRole('row').filter({ hasText: admin.email });
    expect(await mine.getByRole('button').count()).toBe(0);
    await tab.close();
  });

  it('shows a plain refusal, not the users table, to someone who is not a site admin', async () => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web, { user });
    await tab.page.goto('/site-admin');
    await tab.page.getByText('Only site administrators can see this page.').waitFor();
    expect(await tab.page.locator('table').count()).toBe(0);
    expect(await tab.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(0);
    await tab.close();
  });
});

describe('phone width (375 px)', () => {
  it('keeps the boards list and the keys page within the screen, and their forms usable', async () => {
    const user = await makeUser(web.db);
    for (let i = 0; i < 3; i++) await makeBoard(web.db, user.id, [], `A board with a rather long name, number ${i + 1}`);
    const tab = await openTab(browser, web, { user, viewport: { width: 375, height: 740 } });
    const { page } = tab;
    await page.goto('/boards');
    await page.getByRole('link', { name: /number 3/ }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // Creating a board works at this width.
    await page.getByRole('region', { name: 'New board' }).getByLabel('Name').fill('From my phone');
    await page.getByRole('button', { name: 'Create board' }).click();
    await page.getByRole('heading', { name: 'From my phone' }).waitFor();

    await page.goto('/settings/keys');
    await page.getByLabel('Name').fill('phone key with a fairly long name');
    await page.getByLabel('Only selected boards').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    // Said beside the board picker, in the page's words (not "boardIds: … or null for all of them").
    await page.getByRole('group', { name: 'Boards' }).getByRole('alert').filter({ hasText: 'Choose at least one board, or choose "All boards"' }).waitFor();
    await page.getByLabel(/number 1/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('[data-testid=new-token]').waitFor();
    await page.getByRole('row').filter({ hasText: 'phone key with a fairly long name' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // The create button and the token are on screen, not pushed off to the side.
    const token = await page.locator('[data-testid=new-token]').boundingBox();
    expect(token!.x).toBeGreaterThanOrEqual(0);
    expect(token!.x + token!.width).toBeLessThanOrEqual(375);
    await tab.close();
  });
});
