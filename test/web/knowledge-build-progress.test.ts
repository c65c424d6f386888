import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories.js';
import { makeWorkspace } from '../workspace-factories.js';
import type { KnowledgeStatus } from '../../src/web/client/support/types.js';
import { horizontalOverflow, launchBrowser, openTab, PHONE, sessionFor, startWebApp, type Tab, type WebApp } from './browser.js';

/**
 * Issue #47 in Chromium: a person imports 200 articles through the console's own import dialog and watches the
 * knowledge page say how far ranking by meaning is ("37 of 200 articles ready, about 2 minutes left"), the figures
 * rising without a reload, then "all 200 articles ready". The vectors come from a loopback embeddings server the test
 * holds: it answers as many requests as the test has let through and keeps the next one waiting, so the build stands
 * still at a number the test chose (the build embeds one article per request, one after another), and the page can be
 * compared with GET …/knowledge-status at the same moment. Nothing depends on how fast the machine is.
 */

/** The loopback embeddings server: answers `allowed` requests, holds the rest until more are allowed. */
interface Gate {
  url: string;
  /** Requests answered so far (each one article's texts). */
  served(): number;
  /** Requests waiting to be answered. */
  waiting(): number;
  /** Lets `n` more requests through. */
  release(n: number): void;
  /** Down (true): the requests held and every new one have their connection cut, as by a server that died; up again (false). */
  down(on: boolean): void;
  close(): Promise<void>;
}

async function startGate(): Promise<Gate> {
  let allowed = 0;
  let served = 0;
  let isDown = false;
  const held: { send: () => void; cut: () => void }[] = [];
  const flush = () => {
    while (held.length && served < allowed) held.shift()!.send();
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const cut = () => req.socket.destroy();
      if (isDown) return cut();
      const { input, model } = JSON.parse(raw) as { input: string[]; model: string };
      held.push({
        send: () => {
          served++;
          // A toy vector per text, of one size (the build refuses vectors of mixed sizes).
          const data = input.map((text, index) => ({ object: 'embedding', index, embedding: [1, text.length % 7, (text.charCodeAt(0) % 5) + 0.5, index % 2] }));
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model, data }));
        },
        cut,
      });
      flush();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    served: () => served,
    waiting: () => held.length,
    release(n) {
      allowed += n;
      flush();
    },
    down(on) {
      isDown = on;
      if (on) for (const h of held.splice(0)) h.cut();
    },
    async close() {
      isDown = false;
      allowed = Infinity;
      flush();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

let browser: Browser;
let web: WebApp;
let gate: Gate;
beforeAll(async () => {
  gate = await startGate();
  [browser, web] = await Promise.all([
    launchBrowser(),
    // A held request must not time out while the test looks at the page (the default is 10 s; 300 s is the most allowed).
    startWebApp({ SEMANTIC_RANKING: 'true', EMBEDDINGS_URL: gate.url, EMBEDDINGS_MODEL: 'toy', EMBEDDINGS_TIMEOUT_MS: '300000' }),
  ]);
}, 120_000);
afterAll(async () => {
  console.log(`the console showed:\n${shown.join('\n')}`);
  await gate?.close();
  await browser?.close();
  await web?.close();
});

const TOPICS = ['password', 'invoice', 'export', 'calendar', 'webhook', 'mobile app', 'two-factor sign-in', 'team seats', 'refund', 'data retention'];

/** Help-centre page n: a title and two paragraphs, different for each n. */
function helpPage(n: number) {
  const topic = TOPICS[n % TOPICS.length]!;
  return {
    title: `Help ${n}: ${topic} questions`,
    body: `Article ${n} answers questions about the ${topic}. Open Settings, then ${topic}, and follow step ${n % 9 + 1}.\n\nIf it still fails, write to support and mention code ${1000 + n}.`,
  };
}

/** The page's ranking status, as the person reads it ('' while none is shown). */
const statusText = (page: Page) => page.getByTestId('ranking-status').innerText({ timeout: 1000 }).catch(() => '');

/** The workspace's knowledge-status as the API reports it to the same member. */
async function apiStatus(cookie: string, workspaceId: number) {
  const { status, json } = await web.call({ cookie }, 'GET', `/agent/workspaces/${workspaceId}/knowledge-status`);
  expect(status).toBe(200);
  return json as KnowledgeStatus;
}

/** Waits until the gate has answered `served` requests in all and holds the next one: the build stands still. */
async function heldAt(served: number) {
  await expect.poll(() => ({ served: gate.served(), waiting: gate.waiting() }), { timeout: 60_000, interval: 100 }).toEqual({ served, waiting: 1 });
}

/** The progress texts the page showed, printed at the end (to read the time-left estimates a run saw). */
const shown: string[] = [];

const PROGRESS = /^Ranking by meaning: (\d+) of (\d+) articles ready(?:, (less than a minute|about (\d+) minutes?|about (\d+) hours) left)?\. Until then answers rank by words only\.$/;

/**
 * Lets `n` more articles through, then checks the page against the API while the build stands at `total`: the same
 * figures, and a time left between what the pace made it when the articles were let through and what it makes it now
 * (the estimate only grows while the build is held).
 */
async function releaseAndCompare(page: Page, cookie: string, workspaceId: number, base: number, n: number, total: number, inMinutes = false) {
  const before = await apiStatus(cookie, workspaceId);
  const releasedAt = Date.now();
  gate.release(n);
  await heldAt(base + total);
  const api = await apiStatus(cookie, workspaceId);
  expect(api).toMatchObject({ articles: 200, withVectors: total, semanticRanking: true, rankingByMeaning: false });
  expect(api.buildingSince).toBe(before.buildingSince);
  // The page reads the status again by itself (no reload): the new figures appear.
  await expect.poll(() => statusText(page), { timeout: 60_000, interval: 250 }).toMatch(new RegExp(`^Ranking by meaning: ${total} of 200 articles ready`));
  const text = await statusText(page);
  shown.push(text);
  const after = await apiStatus(cookie, workspaceId);
  const m = PROGRESS.exec(text);
  expect(m, text).not.toBeNull();
  expect([Number(m![1]), Number(m![2])]).toEqual([after.withVectors, after.articles]);
  // The time left is shown once some articles are done, and is what the pace says: at least the pace at the release
  // (the build had stood still since buildingSince), at most the pace now.
  expect(m![3], text).toBeDefined();
  if (inMinutes) expect(m![4], text).toBeDefined();
  const since = Date.parse(api.buildingSince!);
  const low = Math.ceil(((releasedAt - since) / 1000 / total) * (200 - total));
  const high = after.secondsLeft!;
  expect(high).toBeGreaterThanOrEqual(low);
  if (m![3] === 'less than a minute') expect(low, text).toBeLessThan(60);
  else if (m![4]) {
    expect(Number(m![4]), `${text} (pace: ${low}-${high} s)`).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(low / 60)));
    expect(Number(m![4]), `${text} (pace: ${low}-${high} s)`).toBeLessThanOrEqual(Math.ceil(high / 60));
  } else {
    expect(Number(m![5]) * 3600, `${text} (pace: ${low}-${high} s)`).toBeGreaterThanOrEqual(low - 1800);
    expect(Number(m![5]) * 3600, `${text} (pace: ${low}-${high} s)`).toBeLessThanOrEqual(high + 1800);
  }
  return total;
}

/** Opens the import dialog, chooses the files, checks the preview's count (and its contrast) and imports them. */
async function importThroughDialog(tab: Tab, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const { page } = tab;
  await page.getByRole('button', { name: 'Import files' }).click();
  await page.getByLabel('Files').setInputFiles(files);
  await expect.poll(() => page.getByTestId('import-summary').innerText().catch(() => ''), { timeout: 60_000 }).toBe('200 articles to import: 200 new, 0 replacing an existing article.');
  await tab.checkContrast();
  await page.getByRole('button', { name: 'Import 200 articles' }).click();
  await page.getByText('Imported: 200 created, 0 updated.').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Done', exact: true }).click();
}

/** The build right after the import (nothing embedded yet), three steps of it, then the end; returns the figures seen. */
async function followTheBuild(tab: Tab, cookie: string, workspaceId: number, { holdFirst = 0 } = {}) {
  const { page } = tab;
  const seen: number[] = [];
  // The gate counts requests over the whole file: an earlier workspace's build took the first ones.
  const base = gate.served();
  // The import is followed at once, without a reload: nothing embedded yet, and too early to say how long.
  await expect.poll(() => statusText(page), { timeout: 60_000, interval: 250 }).toBe('Ranking by meaning: 0 of 200 articles ready. Until then answers rank by words only.');
  await heldAt(base);
  const start = await apiStatus(cookie, workspaceId);
  expect(start).toMatchObject({ articles: 200, withVectors: 0, rankingByMeaning: false, secondsLeft: null });
  expect(Date.parse(start.buildingSince!)).toBeLessThanOrEqual(Date.now());
  seen.push(0);
  if (holdFirst) {
    // A build that stood still for holdFirst seconds before 37 articles were done has, at that pace, over a minute
    // left for the other 163 (15 s / 37 × 163 = 66 s at the least): the page says so in minutes. Until the release it
    // stays at 0, with no estimate.
    const since = Date.parse(start.buildingSince!);
    await expect.poll(() => Date.now() - since, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(holdFirst * 1000);
    expect(await statusText(page)).toBe('Ranking by meaning: 0 of 200 articles ready. Until then answers rank by words only.');
  }
  // Three batches, of uneven sizes (the build reads 16 articles per round: 37 and 117 fall inside rounds).
  seen.push(await releaseAndCompare(page, cookie, workspaceId, base, 37, 37, holdFirst >= 15));
  // The progress text, with its time left, is legible (at this size and the other).
  await tab.checkContrast();
  seen.push(await releaseAndCompare(page, cookie, workspaceId, base, 80, 117));
  seen.push(await releaseAndCompare(page, cookie, workspaceId, base, 82, 199));
  // The last one: ranking by meaning.
  gate.release(1);
  await expect.poll(() => statusText(page), { timeout: 60_000, interval: 250 }).toBe('Ranking by meaning: all 200 articles ready.');
  await web.app.semanticRanking!.idle();
  expect(await apiStatus(cookie, workspaceId)).toMatchObject({ articles: 200, withVectors: 200, rankingByMeaning: true, buildingSince: null, secondsLeft: null });
  seen.push(200);
  return seen;
}

describe('the knowledge build in the console', () => {
  it('desktop: signs in, imports 200 Markdown pages, and sees 0, 37 (about N minutes left), 117, 199 of 200 articles ready, then all 200', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Help centre ${owner.id}` });
    const tab = await openTab(browser, web);
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/knowledge`);
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === `/support/${workspace.id}/knowledge`, { timeout: 30_000 });
    await page.getByTestId('empty-knowledge').waitFor({ timeout: 30_000 });
    // No articles: nothing to rank, no status.
    expect(await page.getByTestId('ranking-status').count()).toBe(0);

    // 200 help pages, one Markdown file each, chosen together in the file picker.
    const files = Array.from({ length: 200 }, (_, i) => {
      const { title, body } = helpPage(i + 1);
      return { name: `help-${String(i + 1).padStart(3, '0')}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# ${title}\n\n${body}\n`) };
    });
    await importThroughDialog(tab, files);
    await page.getByRole('button', { name: 'Help 1: invoice questions', exact: true }).waitFor({ timeout: 30_000 });

    const { cookie } = await sessionFor(web, owner.email, owner.password);
    expect(await followTheBuild(tab, cookie, workspace.id, { holdFirst: 15 })).toEqual([0, 37, 117, 199, 200]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await tab.close();
  }, 300_000);

  it('phone (390×844): imports 200 articles from a JSON file, and the status reads the same, on screen and legible', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Phone help ${owner.id}` });
    const tab = await openTab(browser, web, { user: owner, viewport: PHONE, touch: true });
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/knowledge`);
    await page.getByTestId('empty-knowledge').waitFor({ timeout: 30_000 });
    const articles = Array.from({ length: 200 }, (_, i) => ({ externalId: `faq-${i + 1}`, ...helpPage(i + 1) }));
    await importThroughDialog(tab, [{ name: 'help-centre.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(articles)) }]);

    const { cookie } = await sessionFor(web, owner.email, owner.password);
    // The status is on screen from the top of the page, inside the phone's width, and pushes nothing sideways.
    await expect.poll(() => statusText(page), { timeout: 60_000, interval: 250 }).toMatch(/of 200 articles ready/);
    const box = (await page.getByTestId('ranking-status').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    expect(await followTheBuild(tab, cookie, workspace.id)).toEqual([0, 37, 117, 199, 200]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await tab.close();
  }, 300_000);
});

describe('a build that cannot go on, in the console', () => {
  /** What the page says of a stalled build and of a failed one (the time in the account's format, whatever it is). */
  const STALLED = /^Ranking by meaning: 37 of 200 articles ready, and none finished since .+: it is waiting for the service that computes meaning\. Until then answers rank by words only\.$/;
  const FAILED =
    /^Ranking by meaning has stopped at 37 of 200 articles ready: the embeddings server could not be reached\. Last try .+\. It is tried again about every 30 seconds while this page is open or customers ask\. Until then answers rank by words only\. If it lasts, tell whoever runs this server\.$/;

  it('says when the build stands still and when the embeddings server is down (desktop and phone, and over the API), retries, recovers, and follows an import made elsewhere', async () => {
    const owner = await makeUser(web.db);
    const workspace = await makeWorkspace(web.db, { ownerId: owner.id, name: `Down help ${owner.id}` });
    const { cookie } = await sessionFor(web, owner.email, owner.password);
    const base = gate.served();
    // 200 articles through the API (the dialog is the tests' above): nothing is embedded until the page asks.
    const articles = Array.from({ length: 200 }, (_, i) => ({ externalId: `faq-${String(i + 1).padStart(3, '0')}`, ...helpPage(i + 1) }));
    expect((await web.call({ cookie }, 'POST', `/agent/workspaces/${workspace.id}/articles/import`, { articles })).status).toBe(200);
    const tab = await openTab(browser, web, { user: owner });
    const { page } = tab;
    await page.goto(`/support/${workspace.id}/knowledge`);
    // A mark the page would lose on a reload: everything below is seen without one.
    await page.evaluate(() => ((globalThis as unknown as { mark: number }).mark = 47));

    // 37 articles, then the next one held: no article finishes for over a minute, and the status says so.
    gate.release(37);
    await heldAt(base + 37);
    await expect.poll(async () => (await apiStatus(cookie, workspace.id)).stalledSince, { timeout: 90_000, interval: 1000 }).not.toBeNull();
    const stalled = await apiStatus(cookie, workspace.id);
    expect(stalled).toMatchObject({ articles: 200, withVectors: 37, rankingByMeaning: false, failure: null });
    expect(Date.now() - Date.parse(stalled.stalledSince!)).toBeGreaterThan(60_000);
    expect(Date.parse(stalled.stalledSince!)).toBeGreaterThanOrEqual(Date.parse(stalled.buildingSince!));
    await expect.poll(() => statusText(page), { timeout: 30_000, interval: 250 }).toMatch(STALLED);
    shown.push(await statusText(page));

    // The embeddings server goes down: the request held is cut, the build stops, and the status says what failed,
    // when, and when it is tried again; the page says it in words, as a problem, legible.
    const downAt = Date.now();
    gate.down(true);
    await expect.poll(async () => (await apiStatus(cookie, workspace.id)).failure, { timeout: 30_000, interval: 250 }).not.toBeNull();
    const failed = await apiStatus(cookie, workspace.id);
    expect(failed).toMatchObject({ articles: 200, withVectors: 37, rankingByMeaning: false, buildingSince: null, stalledSince: null, secondsLeft: null });
    expect(failed.failure).toMatchObject({ kind: 'unreachable', reason: 'The embeddings server could not be reached.' });
    // The reason names no address (the log has the detail).
    expect(JSON.stringify(failed.failure)).not.toContain('127.0.0.1');
    expect(Date.parse(failed.failure!.at)).toBeGreaterThanOrEqual(downAt - 1000);
    expect(Date.parse(failed.failure!.retryAt) - Date.parse(failed.failure!.at)).toBe(30_000);
    await expect.poll(() => statusText(page), { timeout: 30_000, interval: 250 }).toMatch(FAILED);
    const text = await statusText(page);
    shown.push(text);
    expect(await page.getByTestId('ranking-status').getAttribute('class')).toBe('alert');
    await tab.checkContrast();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // On a phone: the same words, on screen from the top, inside its width.
    const phone = await openTab(browser, web, { user: owner, viewport: PHONE, touch: true });
    await phone.page.goto(`/support/${workspace.id}/knowledge`);
    await expect.poll(() => statusText(phone.page), { timeout: 30_000, interval: 250 }).toMatch(FAILED);
    const box = (await phone.page.getByTestId('ranking-status').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(await horizontalOverflow(phone.page)).toBeLessThanOrEqual(0);
    await phone.checkContrast();
    await phone.close();

    // Still down: the page's own reads try again after retryAt, and fail again (a later failure, nothing stored).
    await expect.poll(async () => (await apiStatus(cookie, workspace.id)).failure?.at, { timeout: 90_000, interval: 1000 }).not.toBe(failed.failure!.at);
    const again = await apiStatus(cookie, workspace.id);
    expect(again).toMatchObject({ withVectors: 37, failure: { kind: 'unreachable' } });
    expect(Date.parse(again.failure!.at)).toBeGreaterThanOrEqual(Date.parse(failed.failure!.retryAt));

    // Up again: the next retry goes on from article 38, the failure is gone, and the build ends.
    gate.down(false);
    gate.release(163);
    await expect.poll(() => statusText(page), { timeout: 120_000, interval: 500 }).toBe('Ranking by meaning: all 200 articles ready.');
    expect(await page.getByTestId('ranking-status').getAttribute('class')).toBe('muted');
    expect(await apiStatus(cookie, workspace.id)).toMatchObject({ articles: 200, withVectors: 200, rankingByMeaning: true, failure: null, stalledSince: null });

    // An import made elsewhere (here, the API) while the page says all are ready: the page sees it within its next
    // read (15 s), status and list, without a reload.
    gate.release(5);
    const more = [1, 2, 3, 4, 5].map((n) => ({ externalId: `aaa-${n}`, title: `Added elsewhere ${n}`, body: `Imported while the page was open (${n}).` }));
    expect((await web.call({ cookie }, 'POST', `/agent/workspaces/${workspace.id}/articles/import`, { articles: more })).status).toBe(200);
    await expect.poll(() => statusText(page), { timeout: 30_000, interval: 250 }).toMatch(/ (of )?205 articles ready/);
    await page.getByRole('button', { name: 'Added elsewhere 1', exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => statusText(page), { timeout: 30_000, interval: 250 }).toBe('Ranking by meaning: all 205 articles ready.');
    expect(await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark)).toBe(47);
    await tab.close();
  }, 400_000);
});
