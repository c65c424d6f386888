import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { LoopbackSmtp } from '../smtp-server.js';
import { contrastViolations, launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

/** Issue #34 item 5 and 6 in Chromium: the bell's live count, the list, watching, the account page's mail settings, unsubscribing, the mail log. */
const smtp = new LoopbackSmtp();
let browser: Browser;
let web: WebApp;
beforeAll(async () => {
  await smtp.start();
  [browser, web] = await Promise.all([launchBrowser(), startWebApp(smtp.env({ RATE_LIMIT_MAX: '100000', NOTIFY_MAIL_BATCH_SECONDS: '1' }))]);
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await smtp.stop();
});

const handle = (user: { email: string }) => `@${user.email.split('@')[0]}`;

async function boardWithCard() {
  const ada = await makeUser(web.db, { name: 'Ada Lovelace' });
  const bob = await makeUser(web.db, { name: 'Bob Builder' });
  const board = await makeBoard(web.db, ada.id, [{ userId: bob.id, role: 'member' }], 'Launch');
  const adaKey = (await makeKey(web.db, ada.id)).auth;
  const list = (await web.call(adaKey, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' })).json;
  const card = (await web.call(adaKey, 'POST', `/api/lists/${list.id}/cards`, { title: 'Write the press release' })).json;
  return { ada, bob, board, adaKey, card };
}

describe('the bell', () => {
  it('counts unread notifications live, lists them, opens the card and marks read; the list page marks all read', { timeout: 120_000 }, async () => {
    const { bob, board, adaKey, card } = await boardWithCard();
    const tab = await openTab(browser, web, { user: bob });
    const { page } = tab;
    await page.goto('/boards');
    const bell = page.locator('.bell-button');
    await bell.waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');

    // Someone else's changes, made with a key while the page is open: the count follows by itself.
    await web.call(adaKey, 'PUT', `/api/cards/${card.id}/members/${bob.id}`);
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 30_000 });
    await web.call(adaKey, 'POST', `/api/cards/${card.id}/comments`, { text: `${handle(bob)} please review` });
    await page.getByRole('button', { name: 'Notifications, 2 unread' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('unread-count').textContent()).toBe('2');

    await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.getByRole('link', { name: 'Ada Lovelace assigned you to “Write the press release”' }).waitFor();
    await popover.getByRole('link', { name: /Ada Lovelace mentioned you on “Write the press release”/ }).click();
    await page.waitForURL(new RegExp(`/boards/${board.id}\\?card=${card.id}$`));
    await page.getByRole('dialog', { name: 'Write the press release' }).waitFor();
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 30_000 });

    await page.goto('/notifications');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.locator('.notification-list li.unread').filter({ hasText: 'assigned you to' }).waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor({ timeout: 30_000 });
    // The bell hears the change over the live stream and may show it before the list has reloaded.
    await expect.poll(() => page.locator('.notification-list li.unread').count(), { timeout: 30_000 }).toBe(0);
    const bobKey = (await makeKey(web.db, bob.id)).auth;
    expect((await web.call(bobKey, 'GET', '/api/notifications/unread-count')).json).toEqual({ unread: 0 });

    // One batched mail, with both.
    const mail = await smtp.waitFor(bob.email);
    expect(mail.subject).toBe('2 new notifications on Taskboard');
    await tab.close();
  });

  it('watches a card from its dialog: a change by someone else then rings', { timeout: 120_000 }, async () => {
    const { bob, board, adaKey, card } = await boardWithCard();
    const tab = await openTab(browser, web, { user: bob });
    const { page } = tab;
    await page.goto(`/boards/${board.id}?card=${card.id}`);
    const dialog = page.getByRole('dialog', { name: 'Write the press release' });
    await dialog.getByRole('button', { name: 'Watch', exact: true }).click();
    await dialog.getByRole('button', { name: 'Watching' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Watching' }).getAttribute('aria-pressed')).toBe('true');
    await web.call(adaKey, 'PATCH', `/api/cards/${card.id}`, { title: 'Write the launch post' });
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 30_000 });
    // The bell is behind the open dialog: close it first.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).getByText('Ada Lovelace edited “Write the launch post”').waitFor();
    await tab.close();
  });
});

describe('the bell’s menu (#46)', () => {
  for (const [device, viewport] of [['desktop', { width: 1280, height: 800 }], ['a 390 px phone', PHONE]] as const) {
    it(`is a dialog named Notifications, every text at 4.5:1 or better, inside the screen on ${device}`, { timeout: 120_000 }, async () => {
      const { bob, adaKey, card } = await boardWithCard();
      await web.call(adaKey, 'PUT', `/api/cards/${card.id}/members/${bob.id}`);
      await web.call(adaKey, 'POST', `/api/cards/${card.id}/comments`, { text: `${handle(bob)} have a look` });
      const tab = await openTab(browser, web, { user: bob, viewport, touch: device !== 'desktop' });
      const { page } = tab;
      await page.goto('/boards');
      const bell = page.getByRole('button', { name: 'Notifications, 2 unread' });
      await bell.waitFor({ timeout: 30_000 });
      if (device === 'desktop') await bell.click();
      else await bell.tap();
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await menu.getByRole('link', { name: /Ada Lovelace mentioned you/ }).waitFor();
      await menu.getByRole('button', { name: 'Mark all read' }).waitFor();

      const box = (await menu.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(await contrastViolations(page)).toEqual([]);

      // Read ones (another background) are checked too.
      await menu.getByRole('button', { name: 'Mark all read' }).click();
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor({ timeout: 30_000 });
      expect(await contrastViolations(page)).toEqual([]);
      await menu.getByRole('link', { name: 'See all notifications' }).click();
      await page.waitForURL(/\/notifications$/);
      await tab.close();
    });
  }
});

describe('notification mail', () => {
  it('is chosen on the account page, and stopped by the mailed unsubscribe link in a browser that is not signed in', { timeout: 120_000 }, async () => {
    const { bob, adaKey, card } = await boardWithCard();
    const tab = await openTab(browser, web, { user: bob });
    const { page } = tab;
    await page.goto('/settings/account');
    const section = page.getByRole('region', { name: 'Notification mail' });
    const assigned = section.getByLabel('I am assigned to a card');
    await assigned.waitFor();
    expect(await assigned.isChecked()).toBe(true);
    await assigned.uncheck();
    await section.getByRole('button', { name: 'Save notification mail' }).click();
    await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await expect.poll(async () => page.getByRole('region', { name: 'Notification mail' }).getByLabel('I am assigned to a card').isChecked()).toBe(false);
    expect(await page.getByRole('region', { name: 'Notification mail' }).getByLabel('someone @mentions me in a comment').isChecked()).toBe(true);

    // Assigned (not mailed, by choice) and mentioned (mailed): the mail holds the mention only.
    await web.call(adaKey, 'PUT', `/api/cards/${card.id}/members/${bob.id}`);
    await web.call(adaKey, 'POST', `/api/cards/${card.id}/comments`, { text: `${handle(bob)} one more thing` });
    const mail = await smtp.waitFor(bob.email);
    expect(mail.text).toContain('Ada Lovelace mentioned you on');
    expect(mail.text).not.toContain('assigned you');
    const unsubscribe = /https?:\/\/\S+\/unsubscribe\/uns_[0-9a-f]+/.exec(mail.text)![0];

    const stranger = await openTab(browser, web);
    await stranger.page.goto(new URL(unsubscribe).pathname);
    // Opening the link changes nothing (mail scanners open links): the person clicks.
    await stranger.page.getByRole('button', { name: 'Stop notification mail' }).waitFor();
    const settings = await web.db.prisma.notificationSettings.findUnique({ where: { userId: bob.id } });
    expect(settings?.mailMentioned ?? true).toBe(true);
    await stranger.page.getByRole('button', { name: 'Stop notification mail' }).click();
    await stranger.page.getByRole('status').filter({ hasText: `You are unsubscribed: ${bob.email} gets no more notification mail` }).waitFor();
    await stranger.close();

    await page.reload();
    const after = page.getByRole('region', { name: 'Notification mail' });
    await after.getByLabel('I am assigned to a card').waitFor();
    for (const label of ['I am assigned to a card', 'someone @mentions me in a comment', 'a card I am assigned to is due within a day', 'a card I watch changes']) {
      expect(await after.getByLabel(label).isChecked()).toBe(false);
    }
    await tab.close();
  });
});

describe('the mail log', () => {
  it('shows site admins what was queued, sent and failed, and why', { timeout: 120_000 }, async () => {
    const admin = await makeUser(web.db, { name: 'Site Admin', siteAdmin: true });
    const refused = await makeUser(web.db, { name: 'Refused Person' });
    const fine = await makeUser(web.db, { name: 'Fine Person' });
    smtp.refuse.set(refused.email, { code: 550, message: '5.1.1 mailbox unavailable' });
    for (const user of [refused, fine]) expect((await web.call({}, 'POST', '/auth/password-reset', { email: user.email })).status).toBe(202);
    await smtp.waitFor(fine.email);

    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await page.goto('/boards');
    await page.getByRole('link', { name: 'Mail log' }).click();
    await page.getByRole('heading', { name: 'Mail delivery log' }).waitFor();
    const failedRow = page.locator('tr', { hasText: refused.email });
    await failedRow.getByText('failed').waitFor({ timeout: 30_000 });
    await failedRow.getByText(/550.*mailbox unavailable/).waitFor();
    await page.locator('tr', { hasText: fine.email }).getByText('sent', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Show').selectOption('failed');
    await expect.poll(() => page.locator('tr', { hasText: fine.email }).count()).toBe(0);
    await page.locator('tr', { hasText: refused.email }).waitFor();

    // Not for anyone else.
    const other = await openTab(browser, web, { user: fine });
    await other.page.goto('/site-admin/mail');
    await other.page.getByText('Only site administrators can see this page.').waitFor();
    await Promise.all([tab.close(), other.close()]);
  });
});
