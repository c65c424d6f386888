import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

/** Issue #46 item 10 in Chromium: one date format, in the time zone and clock set on the account page. */
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

const inTokyo = (iso: string, time: boolean) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(time ? { hour: 'numeric', minute: '2-digit', hour12: false } : {}),
  }).format(new Date(iso));

/** No ISO instant, no "12/6/2026, 4:52:30 PM", no AM/PM on a 24-hour clock. */
const OTHER_FORMATS = /\d{4}-\d{2}-\d{2}T|\d{1,2}\/\d{1,2}\/\d{4}|\b[AP]M\b/;

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 390 × 844 phone', PHONE],
] as const) {
  describe(`dates on ${device}`, () => {
    it("follow the time zone and clock chosen on the account page: the due date on the tile and the card, the activity's time", { timeout: 120_000 }, async () => {
      const user = await makeUser(web.db, { name: 'Tomoko Tanaka' });
      const { auth } = await makeKey(web.db, user.id, { permission: 'write' });
      const board = await makeBoard(web.db, user.id);
      const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
      // Three weeks ahead at 16:30 UTC: 01:30 the next day in Tokyo, so the zone shows in the day too.
      const due = new Date(Date.now() + 21 * 86_400_000);
      due.setUTCHours(16, 30, 0, 0);
      const dueAt = due.toISOString();
      const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'Ship it' })).json;
      expect((await web.call(auth, 'PATCH', `/api/cards/${card.id}`, { dueAt })).status).toBe(200);

      const tab = await openTab(browser, web, { user, ...(viewport ? { viewport } : {}) });
      const { page } = tab;
      await page.goto('/settings/account');
      const section = page.getByRole('region', { name: 'Dates and times' });
      const zone = section.getByLabel('Time zone');
      // The default is the browser's own zone, named.
      expect(await zone.locator('option:checked').textContent()).toMatch(/^Browser's time zone \(.+\)$/);
      await zone.selectOption('Asia/Tokyo');
      await section.getByLabel('Clock').selectOption('24');
      await section.getByRole('button', { name: 'Save dates and times' }).click();
      await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const stored = await web.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect([stored.timeZone, stored.hour12]).toEqual(['Asia/Tokyo', false]);

      // A new page load reads it back from the server (GET /auth/session), not the page's memory.
      await page.goto(`/boards/${board.id}`);
      await page.locator('[data-live="live"]').waitFor();
      const tile = page.locator(`li.card[data-card-id="${card.id}"]`);
      const tileDate = tile.locator(`time[datetime="${dueAt}"]`);
      expect(await tileDate.textContent()).toBe(`Due ${inTokyo(dueAt, false)}`);
      expect(await tileDate.getAttribute('title')).toBe(inTokyo(dueAt, true));

      await tile.locator('.card-open').click();
      const dialog = page.getByRole('dialog');
      const chip = dialog.locator('time.due-chip');
      expect(await chip.textContent()).toBe(inTokyo(dueAt, true));
      expect(await chip.textContent()).not.toMatch(OTHER_FORMATS);
      expect(await tile.textContent()).not.toMatch(OTHER_FORMATS);
      // The picker shows Tokyo's wall clock, and saving it unchanged keeps the instant.
      await dialog.getByRole('button', { name: 'Edit due date' }).first().click();
      const input = dialog.getByLabel('Due date', { exact: true });
      const wall = new Date(due.getTime() + 9 * 3_600_000).toISOString().slice(0, 16);
      expect(await input.inputValue()).toBe(wall);
      await dialog.getByRole('button', { name: 'Save' }).first().click();
      // Saved, the picker closes (the value is unchanged, so the API alone cannot tell the save is done); an
      // Escape while it is still open closes the picker, not the card.
      await input.waitFor({ state: 'detached' });
      expect((await web.call(auth, 'GET', `/api/cards/${card.id}`)).json.dueAt).toBe(dueAt);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // The activity: Trello's relative words, the exact time (Tokyo's) in the tooltip.
      await page.getByRole('button', { name: 'Activity', exact: true }).click();
      const entry = page.locator('aside.activity li[data-type="card.created"] time').first();
      const createdAt = (await entry.getAttribute('datetime'))!;
      expect(await entry.textContent()).toMatch(/^(now|\d+ (second|minute)s? ago)$/);
      expect(await entry.getAttribute('title')).toBe(inTokyo(createdAt, true));
      await tab.close();
    });
  });
}

describe("a card's due date by default (the browser's zone and clock)", () => {
  it('reads as the one format everywhere: no ISO string, no "12/6/2026, 4:52:30 PM", no zero-padded "04:30 PM"', { timeout: 60_000 }, async () => {
    const user = await makeUser(web.db, { name: 'Dana Default' });
    const { auth } = await makeKey(web.db, user.id, { permission: 'write' });
    const board = await makeBoard(web.db, user.id);
    const list = (await web.call(auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
    const due = new Date(Date.now() + 30 * 86_400_000);
    due.setUTCHours(16, 5, 30, 0);
    const card = (await web.call(auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'Renew the domain' })).json;
    expect((await web.call(auth, 'PATCH', `/api/cards/${card.id}`, { dueAt: due.toISOString() })).status).toBe(200);

    const tab = await openTab(browser, web, { user });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?card=${card.id}`);
    const chip = page.getByRole('dialog').locator('.due-chip');
    await chip.waitFor();
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const expected = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(due);
    const text = (await chip.textContent())!;
    expect(text).toBe(expected);
    expect(text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, (?:[1-9]|1[0-2]):\d{2}\s[AP]M$/);
    const tileText = (await page.locator(`li.card[data-card-id="${card.id}"] .card-badges`).textContent())!;
    for (const shown of [text, tileText]) {
      expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{4}|\d:\d{2}:\d{2}|\b0\d:\d{2}/);
    }
    await tab.close();
  });
});
