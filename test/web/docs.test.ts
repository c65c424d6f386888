import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

let web: WebApp;
let browser: Browser;
beforeAll(async () => {
  web = await startWebApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

it.each(['/api/docs', '/v1/docs'])('%s renders in Chromium under its Content-Security-Policy (no violation, no script error)', async (docs) => {
  const tab = await openTab(browser, web);
  try {
    await tab.page.goto(`${docs}/`);
    await tab.page.locator('.swagger-ui .information-container .title').waitFor({ timeout: 15_000 });
    await tab.page.getByRole('button', { name: /Authorize/ }).waitFor();
    expect(await tab.page.locator('.opblock').count()).toBeGreaterThan(3);
    // What a reader does next: open an operation, then the Authorize dialog.
    await tab.page.locator('.opblock-summary').first().click();
    await tab.page.locator('.opblock-body').first().waitFor();
    await tab.page.getByRole('button', { name: /Authorize/ }).first().click();
    await tab.page.locator('.dialog-ux .modal-ux').waitFor();
  } finally {
    await tab.close(); // fails on any CSP violation or page error seen
  }
});
