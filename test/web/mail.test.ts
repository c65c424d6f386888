import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories.js';
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
