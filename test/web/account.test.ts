import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { launchBrowser, openTab, sessionFor, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const navigator: any;

/** Issue #24 in Chromium: the account page, invitation and set-up links, and a console without 401s. */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('the account page', () => {
  it('is reached from the name in the top bar; changes the name and the password; a new e-mail address without mail says to ask a site admin', async () => {
    const user = await makeUser(web.db, { name: 'Grace Hopper' });
    const elsewhere = await sessionFor(web, user.email, user.password);
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/boards');
    await page.locator('.me').getByRole('link', { name: 'Grace Hopper' }).click();
    await page.waitForURL(/\/settings\/account$/);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    await page.getByLabel('Name').fill('Grace B. Hopper');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.locator('.me').getByRole('link', { name: 'Grace B. Hopper' }).waitFor();

    // A new address asks for the current password; this server sends no mail, so it cannot be
    // confirmed and the page says whom to ask, beside the field (test/web/mail.test.ts: with mail).
    const address = `grace-${user.id}@example.com`;
    await page.getByLabel(/^E-mail/).fill(address);
    await page.getByLabel(/^Current password \(to change/).fill(user.password);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.locator('#email-error').filter({ hasText: /sends no mail.*site administrator/ }).waitFor();
    expect((await web.call({}, 'POST', '/auth/login', { email: address, password: user.password })).status).toBe(401);

    // The password: this session stays, the other ends.
    const passwords = page.getByRole('region', { name: 'Password' });
    await passwords.getByLabel('Current password').fill('a wrong guess');
    await passwords.getByLabel(/^New password/).fill('a much better password');
    await passwords.getByRole('button', { name: 'Change password' }).click();
    await page.locator('#current-password-error').filter({ hasText: 'That is not your current password.' }).waitFor();
    await passwords.getByLabel('Current password').fill(user.password);
    await passwords.getByRole('button', { name: 'Change password' }).click();
    await passwords.getByText(/^Password changed\. Signed out of 1 other session; this one stays signed in\.$/).waitFor();
    expect((await web.call({ cookie: elsewhere.cookie }, 'GET', '/auth/me')).status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it('lists the sessions with their browser and signs out everywhere else', async () => {
    const user = await makeUser(web.db);
    const other = await (await fetch(`${web.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    })).headers.get('set-cookie');
    const otherCookie = other!.split(';')[0]!;
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/settings/account');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByRole('row').filter({ hasText: 'Safari on iOS' }).waitFor();
    await sessions.getByRole('row').filter({ hasText: 'This browser' }).waitFor();
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await sessions.getByText(/Signed out of \d+ sessions?\./).waitFor();
    await sessions.getByText('You are signed in only here.').waitFor();
    expect((await web.call({ cookie: otherCookie }, 'GET', '/auth/me')).status).toBe(401);
    await tab.close();
  });
});

describe('invitation links', () => {
  it('a board admin invites an address with no account and copies its link; the invitee sets a name and password there and lands on the board', async () => {
    const admin = await makeUser(web.db, { name: 'Ada Admin' });
    const board = await makeBoard(web.db, admin.id, [], 'Launch');
    const tab = await openTab(browser, web, { user: admin });
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.getByRole('button', { name: /^Members/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Members' });
    const email = `bob-${board.id}@example.com`;
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const link = (await dialog.getByTestId('invitation-link').textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${web.base}/join/inv_[0-9A-Za-z]{46}$`));
    await dialog.getByRole('button', { name: 'Copy invitation link' }).click();
    await dialog.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    // An address already invited is said beside the E-mail field.
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.locator('#invite-email-error').filter({ hasText: 'is already invited' }).waitFor();

    const invitee = await openTab(browser, web);
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'Join “Launch”' }).waitFor();
    await invitee.page.getByText(`Ada Admin invited ${email} to the board Launch as a member.`, { exact: false }).waitFor();
    await invitee.page.getByLabel('Name').fill('Bob Builder');
    await invitee.page.getByLabel(/^Password/).fill('short');
    await invitee.page.getByRole('button', { name: 'Join the board' }).click();
    await invitee.page.locator('#join-password-error').filter({ hasText: 'Must be at least 8 characters' }).waitFor();
    await invitee.page.getByLabel(/^Password/).fill('bob builds things');
    await invitee.page.getByRole('button', { name: 'Join the board' }).click();
    await invitee.page.waitForURL(new RegExp(`/boards/${board.id}$`));
    await invitee.page.getByRole('heading', { name: 'Launch' }).waitFor();
    await invitee.page.locator('.me').getByText('Bob Builder').waitFor();

    // Used up: the link now says so.
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await Promise.all([tab.close(), invitee.close()]);
  });

  it('an expired link gets a page saying so and whom to ask; a lost link is replaced with Resend', async () => {
    const admin = await makeUser(web.db, { name: 'Ada Admin' });
    const board = await makeBoard(web.db, admin.id, [], 'Expiring');
    const { cookie } = await sessionFor(web, admin.email, admin.password);
    const email = `late-${board.id}@example.com`;
    const invited = await web.call({ cookie, origin: web.base }, 'POST', `/api/boards/${board.id}/members`, { email, role: 'observer' });
    const oldLink = invited.json.invitation.url as string;

    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.getByRole('button', { name: /^Members/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Members' });
    await dialog.getByRole('button', { name: `Resend the invitation of ${email}` }).click();
    const newLink = (await dialog.getByTestId('invitation-link').textContent())!.trim();
    expect(newLink).not.toBe(oldLink);

    const visitor = await openTab(browser, web);
    await visitor.page.goto(oldLink);
    await visitor.page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await web.db.prisma.invitation.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await visitor.page.goto(newLink);
    await visitor.page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await visitor.page.getByText(/^Expired on \d{4}-\d{2}-\d{2}; ask Ada Admin for a new one\.$/).waitFor();
    await Promise.all([tab.close(), visitor.close()]);
  });
});

describe('set-up links', () => {
  it('a site admin creates a user without a password and hands over the set-up link; the user chooses a name and password there', async () => {
    const admin = await makeUser(web.db, { siteAdmin: true, name: 'Site Admin' });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto('/site-admin');
    const email = `carol-${admin.id}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Create user' }).click();
    const box = page.getByRole('region', { name: `Set-up link for ${email}` });
    const link = (await box.getByTestId('setup-link').textContent())!.trim();
    expect(link).toMatch(/\/join\/set_[0-9A-Za-z]{46}$/);
    await page.getByRole('row').filter({ hasText: email }).getByText('not set up').waitFor();

    const carol = await openTab(browser, web);
    await carol.page.goto(link);
    await carol.page.getByRole('heading', { name: 'Set up your account' }).waitFor();
    await carol.page.getByLabel('Name').fill('Carol Coder');
    await carol.page.getByLabel(/^Password/).fill('carol codes a lot');
    await carol.page.getByRole('button', { name: 'Set up and sign in' }).click();
    await carol.page.waitForURL(/\/boards$/);
    await carol.page.locator('.me').getByText('Carol Coder').waitFor();
    await page.reload();
    await page.getByRole('row').filter({ hasText: email }).getByText('active', { exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: email }).getByText('not set up').count()).toBe(0);
    await Promise.all([tab.close(), carol.close()]);
  });
});

describe('the browser console', () => {
  it('logs no error when a signed-out visitor opens the app, nor when a signed-in one does', async () => {
    const user = await makeUser(web.db);
    for (const options of [{}, { user }]) {
      const tab = await openTab(browser, web, options);
      const errors: string[] = [];
      tab.page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      tab.page.on('response', (response) => {
        if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
      });
      await tab.page.goto('/boards');
      await tab.page.getByRole('heading', { name: 'user' in options ? 'Boards' : 'Sign in' }).waitFor();
      expect(errors).toEqual([]);
      await tab.close();
    }
  });
});

describe('a forgotten password on a server without mail', () => {
  it('the sign-in page says to ask a site administrator', async () => {
    const tab = await openTab(browser, web);
    await tab.page.goto('/signin');
    await tab.page.getByRole('button', { name: 'Forgot password?' }).click();
    await tab.page.getByRole('status').filter({ hasText: 'This server sends no mail. Ask your site administrator for a link to set a new password.' }).waitFor();
    expect(tab.problems).toEqual([]);
    await tab.close();
  });
});
