import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { LoopbackSmtp, linkIn } from '../smtp-server.js';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

/** Issue #34 in Chromium, against a real SMTP server on loopback: the flows a person clicks from a mail. */
const smtp = new LoopbackSmtp();
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  await smtp.start();
  [browser, web] = await Promise.all([launchBrowser(), startWebApp(smtp.env({ RATE_LIMIT_MAX: '100000' }))]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await smtp.stop();
});

/** The mailed link, pointed at this test's server (PUBLIC_BASE_URL is unset: the request's own origin). */
const linkTo = (text: string) => new URL(linkIn(text)!).pathname;

describe('a new e-mail address', () => {
  it('is asked for on the account page, confirmed from the mailed link after signing in, and the old address is told', { timeout: 120_000 }, async () => {
    const user = await makeUser(web.db, { name: 'Ada Lovelace' });
    const address = `ada-${user.id}@example.test`;
    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto('/settings/account');
    await page.getByLabel(/^E-mail/).fill(address);
    await page.getByLabel(/^Current password \(to change/).fill(user.password);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: `We sent a link to ${address}` }).waitFor();
    expect((await web.call({}, 'POST', '/auth/login', { email: address, password: user.password })).status).toBe(401);

    const mail = await smtp.waitFor(address);
    const path = linkTo(mail.text);
    expect(path).toMatch(/^\/join\/eml_/);

    // Opened in a browser that is not signed in: it asks to sign in first, then comes back.
    const fresh = await openTab(browser, web);
    await fresh.page.goto(path);
    await fresh.page.getByRole('link', { name: 'Sign in to confirm' }).click();
    await fresh.page.getByLabel('E-mail').fill(user.email);
    await fresh.page.getByLabel('Password').fill(user.password);
    await fresh.page.getByRole('button', { name: 'Sign in' }).click();
    await fresh.page.getByRole('button', { name: 'Confirm this address' }).click();
    await fresh.page.getByText(`you sign in with ${address} from now on`).waitFor();
    expect((await web.call({}, 'POST', '/auth/login', { email: address, password: user.password })).status).toBe(200);

    const told = await smtp.waitFor(user.email);
    expect(told.subject).toBe('Your Taskboard e-mail address was changed');
    expect(tab.problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
    await fresh.close();
    await tab.close();
  });
});

describe('a forgotten password', () => {
  it('is reset from the sign-in page: the mailed link sets a new password and signs in; the other sessions end', { timeout: 120_000 }, async () => {
    const user = await makeUser(web.db, { name: 'Mary Jackson' });
    const elsewhere = await openTab(browser, web, { user });
    const tab = await openTab(browser, web);
    const { page } = tab;
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address, a link to set a new password is on its way' }).waitFor();

    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Set a new password for Taskboard');
    await page.goto(linkTo(mail.text));
    // A reset, not a first set-up: the page says so.
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel(/^Password/).fill('a brand new password');
    await page.getByRole('button', { name: 'Set up and sign in' }).click();
    await page.waitForURL(/\/boards$/);
    expect((await web.call({}, 'POST', '/auth/login', { email: user.email, password: 'a brand new password' })).status).toBe(200);
    // The session the other browser had is over.
    await elsewhere.page.goto('/boards');
    await elsewhere.page.waitForURL(/\/signin/);
    expect(tab.problems).toEqual([]);
    await elsewhere.close();
    await tab.close();
  });
});

describe('an invitation', () => {
  it('is mailed to an address without an account; Resend in the members dialog mails a new link, which the invitee opens to join', { timeout: 120_000 }, async () => {
    const admin = await makeUser(web.db, { name: 'Ada Admin' });
    const board = await makeBoard(web.db, admin.id, [], 'Mailed');
    const email = `invitee-${board.id}@example.test`;
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto(`/boards/${board.id}`);
    await page.getByRole('button', { name: /^Members/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Members' });
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('status').filter({ hasText: `Mailed to ${email}.` }).waitFor();
    const first = await smtp.waitFor(email);
    expect(first.subject).toBe('“Ada Admin” invited you to the board “Mailed” on Taskboard');

    await dialog.getByRole('button', { name: `Resend the invitation of ${email}` }).click();
    await dialog.getByRole('status').filter({ hasText: `Mailed to ${email}.` }).waitFor();
    const deadline = Date.now() + 20_000;
    while (smtp.to(email).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const resent = smtp.to(email);
    expect(resent).toHaveLength(2);
    const oldPath = linkTo(first.text);
    const newPath = linkTo(resent[1]!.text);
    expect(newPath).not.toBe(oldPath);

    const invitee = await openTab(browser, web);
    await invitee.page.goto(oldPath);
    await invitee.page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await invitee.page.goto(newPath);
    await invitee.page.getByRole('heading', { name: 'Join “Mailed”' }).waitFor();
    await invitee.page.getByLabel('Name').fill('Ivy Invitee');
    await invitee.page.getByLabel(/^Password/).fill('ivy joins boards');
    await invitee.page.getByRole('button', { name: 'Join the board' }).click();
    await invitee.page.waitForURL(new RegExp(`/boards/${board.id}$`));
    expect(tab.problems).toEqual([]);
    expect(invitee.problems).toEqual([]);
    await Promise.all([tab.close(), invitee.close()]);
  });
});
