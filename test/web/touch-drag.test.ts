import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { boardFromApi, cardsOnScreen, contrastViolations, horizontalOverflow, launchBrowser, openTab, PHONE, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const document: any;
declare const window: any;

/**
 * A card dragged on a phone as a person does it (#46 item 8): real touch events sent through the
 * browser's input pipeline (CDP Input.dispatchTouchEvent, as a touchscreen sends them), so the
 * browser itself decides what is a tap, a scroll or neither.
 */
let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp()]);
  admin = await makeUser(web.db, { name: 'Tess Touch' });
  adminAuth = (await makeKey(web.db, admin.id)).auth;
  // The first page a browser loads pays for its start: paid here, not in a test's time.
  const warm = await openTab(browser, web);
  await warm.page.goto('/signin', { timeout: 60_000 });
  await warm.page.getByLabel('Password').waitFor({ timeout: 60_000 });
  await warm.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function seedBoard(shape: number[]) {
  const board = await makeBoard(web.db, admin.id, [], 'Phone drag');
  const lists: { id: number; cards: number[] }[] = [];
  for (const [l, count] of shape.entries()) {
    const list = (await web.call(adminAuth, 'POST', `/api/boards/${board.id}/lists`, { name: `List ${l + 1}` })).json;
    const cards: number[] = [];
    for (let c = 0; c < count; c++) cards.push((await web.call(adminAuth, 'POST', `/api/lists/${list.id}/cards`, { title: `Card ${l + 1}.${c + 1}` })).json.id);
    lists.push({ id: list.id, cards });
  }
  return { board, lists };
}

async function openBoard(page: Page, boardId: number) {
  await page.goto(`/boards/${boardId}`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('.list[data-list-id]').first().waitFor();
}

/** One finger on the screen, at CSS pixels of the viewport. */
function finger(cdp: CDPSession) {
  let at = { x: 0, y: 0 };
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) => {
    at = { x, y };
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }] });
  };
  return {
    down: (x: number, y: number) => send('touchStart', x, y),
    /** To (x, y) in steps of about `step` pixels, one frame apart. */
    async move(x: number, y: number, step = 12) {
      const from = at;
      const n = Math.max(1, Math.ceil(Math.hypot(x - from.x, y - from.y) / step));
      for (let i = 1; i <= n; i++) {
        await send('touchMove', from.x + ((x - from.x) * i) / n, from.y + ((y - from.y) * i) / n);
        await new Promise((r) => setTimeout(r, 16));
      }
    },
    up: () => send('touchEnd', at.x, at.y),
  };
}

const centre = async (page: Page, selector: string) => {
  const b = (await page.locator(selector).boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};
const tile = (id: number) => `li.card[data-card-id="${id}"]`;
/** Whether a lifted card was ever shown since `watchLift` (a MutationObserver, so a lift that came and went counts). */
const watchLift = (page: Page) =>
  page.evaluate(() => {
    window.lifted = false;
    new window.MutationObserver(() => {
      if (document.querySelector('.drag-ghost, li.card.dragged')) window.lifted = true;
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  });

describe('on a phone (390 × 844, touch)', () => {
  it('a long press lifts a card, the lists scroll at the edge, and the drop lands where the finger was; others see it live', { timeout: 180_000 }, async () => {
    const { board, lists } = await seedBoard([4, 3, 2]);
    const [a, , c] = lists as [(typeof lists)[0], (typeof lists)[0], (typeof lists)[0]];
    const phone = await openTab(browser, web, { user: admin, viewport: PHONE, touch: true });
    const other = await openTab(browser, web, { user: admin });
    const { page } = phone;
    await Promise.all([openBoard(page, board.id), openBoard(other.page, board.id)]);
    const cdp = await phone.context.newCDPSession(page);
    const touch = finger(cdp);

    // The third list is off-screen at first: the phone shows one list and a bit.
    const third = (await page.locator(`.list[data-list-id="${c.id}"]`).boundingBox())!;
    expect(third.x).toBeGreaterThan(PHONE.width);

    const moved = a.cards[1]!;
    const start = await centre(page, tile(moved));
    await touch.down(start.x, start.y);
    // Held still, the card lifts: a copy under the finger, and a slot where it would land.
    await page.locator('.drag-ghost').waitFor();
    await page.locator(`.list[data-list-id="${a.id}"] li.drop-slot`).waitFor();

    // To the right edge, and held there: the lists scroll until the third is in view.
    await touch.move(PHONE.width - 12, start.y);
    await expect.poll(async () => (await page.locator(`.list[data-list-id="${c.id}"]`).boundingBox())!.x + third.width, { timeout: 20_000 }).toBeLessThanOrEqual(PHONE.width);
    // Back to the middle at once (out of the edge, the scrolling stops), once the lists stand still.
    await touch.move(PHONE.width / 2, start.y, PHONE.width);
    const scrolled = () => page.locator('.lists').evaluate((el: any) => el.scrollLeft);
    let last = -1;
    await expect.poll(async () => last === (last = await scrolled())).toBe(true);
    expect(last).toBeGreaterThan(0);
    // Only the lists scrolled, not the page.
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // Between the third list's two cards (in the part of the list on screen, away from the edges).
    const first = (await page.locator(tile(c.cards[0]!)).boundingBox())!;
    const second = (await page.locator(tile(c.cards[1]!)).boundingBox())!;
    const x = (Math.max(first.x, 60) + Math.min(first.x + first.width, PHONE.width - 60)) / 2;
    await touch.move(x, (first.y + first.height + second.y) / 2);
    const slot = page.locator(`.list[data-list-id="${c.id}"] li.drop-slot`);
    await slot.waitFor();
    expect(await page.evaluate((id: number) => [...document.querySelectorAll(`.list[data-list-id="${id}"] ol.cards > li`)].map((li: any) => li.dataset.cardId ?? 'slot'), c.id)).toEqual([
      String(c.cards[0]),
      'slot',
      String(c.cards[1]),
    ]);
    // The lifted card is text like any other: readable (checked here, mid-drag, at the phone's size).
    expect(await contrastViolations(page)).toEqual([]);

    await touch.up();
    const expected = { [a.id]: [a.cards[0]!, a.cards[2]!, a.cards[3]!], [lists[1]!.id]: lists[1]!.cards, [c.id]: [c.cards[0]!, moved, c.cards[1]!] };
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards).toEqual(expected);
    await expect.poll(() => cardsOnScreen(page)).toEqual(expected);
    await expect.poll(() => cardsOnScreen(other.page)).toEqual(expected);
    // The drop opened nothing, and left no copy behind.
    expect(await page.locator('.drag-ghost').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('card')).toBeNull();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await other.close();
    await phone.close();
  });

  it('a short tap still opens the card, a vertical swipe on a card scrolls the page and lifts nothing, and the Move menus stay', { timeout: 180_000 }, async () => {
    const { board, lists } = await seedBoard([24, 1]);
    const [a, b] = lists as [(typeof lists)[0], (typeof lists)[0]];
    const tab = await openTab(browser, web, { user: admin, viewport: PHONE, touch: true });
    const { page } = tab;
    await openBoard(page, board.id);
    const touch = finger(await tab.context.newCDPSession(page));
    await watchLift(page);

    // A tap: the card opens.
    const at = await centre(page, tile(a.cards[0]!));
    await touch.down(at.x, at.y);
    await touch.up();
    const dialog = page.getByRole('dialog', { name: 'Card 1.1' });
    await dialog.waitFor();
    // The dialog's Move menus, for those who would rather not drag.
    await dialog.getByRole('heading', { name: 'Move' }).scrollIntoViewIfNeeded();
    await dialog.getByRole('combobox', { name: /^List/ }).selectOption({ label: 'List 2' });
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(async () => (await boardFromApi(web, adminAuth, board.id)).cards[b.id]).toContain(a.cards[0]!);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.lifted)).toBe(false);

    // A swipe up that starts on a card, then rests longer than a long press before the finger lifts:
    // the page scrolls, and no card is lifted or moved.
    const before = (await boardFromApi(web, adminAuth, board.id)).cards;
    const from = await centre(page, tile(a.cards[5]!));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await touch.down(from.x, from.y);
    await touch.move(from.x, from.y - 300, 20);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(150);
    // Resting past the long press (the timer would have fired by now), then up.
    await page.waitForTimeout(800);
    await touch.up();
    expect(await page.evaluate(() => window.lifted)).toBe(false);
    expect(await page.locator('.drag-ghost').count()).toBe(0);
    expect((await boardFromApi(web, adminAuth, board.id)).cards).toEqual(before);
    expect(new URL(page.url()).searchParams.get('card')).toBeNull();
    await tab.close();
  });
});
