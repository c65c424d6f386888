import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories.js';
import { launchBrowser, openTab, startWebApp, type Tab, type WebApp } from './browser.js';

/**
 * #44 item 3 in Chromium: `/signin?next=…` with a tab or newline inside (which the browser drops
 * when it navigates) must not leave the site, for a visitor already signed in (sent on at once)
 * and for one signing in. A request to evil.example is answered by the test itself, and recorded.
 */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

const FORMS = ['%2F%09%2Fevil.example%2F', '%2F%09%5Cevil.example', '%2F%0A%2Fevil.example'];

/** Records every request to evil.example (answered here: the test machine resolves no outside name). */
async function watchEvil(tab: Tab) {
  const hits: string[] = [];
  await tab.context.route((url) => url.hostname.endsWith('evil.example'), (route) => {
    hits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>evil</title>evil' });
  });
  return hits;
}

describe('sign-in next', { timeout: 120_000 }, () => {
  it.each(FORMS)('signed in already: /signin?next=%s stays on the site (the boards page)', async (next) => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web, { user });
    const hits = await watchEvil(tab);
    await tab.page.goto(`/signin?next=${next}`);
    await tab.page.waitForURL((url) => url.origin === web.base && url.pathname === '/boards');
    expect(hits).toEqual([]);
    expect(new URL(tab.page.url()).origin).toBe(web.base);
    await tab.close();
  });

  it.each(FORMS)('signing in: /signin?next=%s stays on the site (the boards page)', async (next) => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web);
    const hits = await watchEvil(tab);
    await tab.page.goto(`/signin?next=${next}`);
    await tab.page.getByLabel('E-mail').fill(user.email);
    await tab.page.getByLabel('Password').fill(user.password);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.waitForURL((url) => url.origin === web.base && url.pathname === '/boards');
    expect(hits).toEqual([]);
    await tab.close();
  });

  it('a next inside the site is still followed after signing in', async () => {
    const user = await makeUser(web.db);
    const tab = await openTab(browser, web);
    await tab.page.goto(`/signin?next=${encodeURIComponent('/settings/account')}`);
    await tab.page.getByLabel('E-mail').fill(user.email);
    await tab.page.getByLabel('Password').fill(user.password);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.waitForURL((url) => url.origin === web.base && url.pathname === '/settings/account');
    await tab.close();
  });
});
