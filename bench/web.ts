/**
 * The web app's figures, in headless Chromium against `tsx src/server.ts` (what `npm start`
 * runs) on an embedded database, over loopback:
 *  - first load of a 200-card board (10 lists × 20 cards, labels, assignees, checklists,
 *    comments, custom fields): bytes transferred (CDP Network.loadingFinished encodedDataLength,
 *    headers included) and time from navigation start to the cards drawn with a card button
 *    that takes focus; cold loads (a fresh browser context each, so an empty cache), median;
 *  - a script's move (POST /api/cards/{id}/move with a tsk_ key) to the card moving on screen,
 *    p50/p95 over the moves.
 * Usage: npx tsx bench/web.ts [coldLoads=7] [moves=30]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { createUser } from '../src/accounts/users/create-user.js';
import { openEmbedded, type PrismaClient } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { buildWeb } from '../src/web/build.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/web/browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const document: any;
declare const window: any;

const coldLoads = Number(process.argv[2] ?? 7);
const moveCount = Number(process.argv[3] ?? 30);
const root = path.resolve(import.meta.dirname, '..');
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const password = 'bench password 1';

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (v: number) => `${v.toFixed(0)} ms`;
const kb = (v: number) => `${(v / 1024).toFixed(1)} KB`;

/** The 200-card board of bench/boards.ts, with the card parts real boards carry. */
async function seed(prisma: PrismaClient) {
  const users: Awaited<ReturnType<typeof createUser>>[] = [];
  for (let i = 0; i < 5; i++) users.push(await createUser({ db: prisma, email: `web${i}@example.com`, password, name: `Bench User ${i + 1}` }));
  const board = await prisma.board.create({
    data: { name: 'Bench board (200 cards)', description: 'A realistic board for the benchmark.', members: { create: users.map((u, i) => ({ userId: u.id, role: i === 0 ? 'admin' : 'member' })) } },
  });
  const listIds: number[] = [];
  for (let l = 0; l < 10; l++) {
    const list = await prisma.list.create({ data: { boardId: board.id, name: `List ${l + 1}`, position: l } });
    listIds.push(list.id);
    await prisma.card.createMany({
      data: Array.from({ length: 20 }, (_, p) => ({
        boardId: board.id,
        listId: list.id,
        title: `Card ${l + 1}.${p + 1}: a typical task title of some length`,
        description: 'Some description text that a real card would carry, a sentence or two long. '.repeat(2),
        position: p,
      })),
    });
  }
  const cardIds = (await prisma.card.findMany({ where: { boardId: board.id }, select: { id: true }, orderBy: { id: 'asc' } })).map((c) => c.id);
  const colors = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime'] as const;
  const labels = await Promise.all(colors.map((color, i) => prisma.label.create({ data: { boardId: board.id, name: `Label ${i + 1}`, color } })));
  const estimate = await prisma.customField.create({ data: { boardId: board.id, name: 'Estimate', type: 'number' } });
  const priority = await prisma.customField.create({ data: { boardId: board.id, name: 'Priority', type: 'list', options: ['low', 'normal', 'high'] } });
  await prisma.cardLabel.createMany({ data: cardIds.flatMap((cardId, i) => labels.slice(i % 8, (i % 8) + (i % 3)).map((l) => ({ cardId, labelId: l.id }))) });
  await prisma.cardAssignee.createMany({ data: cardIds.filter((_, i) => i % 2 === 0).map((cardId, i) => ({ cardId, userId: users[i % users.length]!.id })) });
  await prisma.cardFieldValue.createMany({
    data: cardIds.filter((_, i) => i % 3 === 0).flatMap((cardId, i) => [
      { cardId, fieldId: estimate.id, value: i % 13 },
      { cardId, fieldId: priority.id, value: ['low', 'normal', 'high'][i % 3]! },
    ]),
  });
  for (const [i, cardId] of cardIds.entries()) {
    if (i % 4 !== 0) continue;
    await prisma.checklist.create({
      data: { cardId, name: 'Steps', position: 0, items: { create: [0, 1, 2].map((position) => ({ name: `Step ${position + 1}`, checked: position === 0, position })) } },
    });
  }
  await prisma.comment.createMany({
    data: cardIds.filter((_, i) => i % 5 === 0).flatMap((cardId) => [0, 1].map((n) => ({ cardId, authorId: users[n]!.id, authorName: users[n]!.name, text: `Comment ${n + 1}` }))),
  });
  const { token } = await createApiKey({ db: prisma, userId: users[0]!.id, name: 'bench', permission: 'write', boardIds: null, expiresAt: null });
  return { boardId: board.id, listIds, cardIds, email: users[0]!.email, token };
}

async function waitUntilUp() {
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not come up');
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'web-bench-'));
const manifest = await buildWeb();
const db = await openEmbedded(dataDir);
await migrate(db);
const fixture = await seed(db.prisma);
await db.close();

const server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server.ts'], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await waitUntilUp();
  const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: fixture.email, password }) });
  const session = /tb_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
  const boardUrl = `${base}/boards/${fixture.boardId}`;
  const boardJson = await fetch(`${base}/api/boards/${fixture.boardId}`, { headers: { authorization: `Bearer ${fixture.token}`, 'accept-encoding': 'gzip, br' } });
  const boardBytes = (await boardJson.arrayBuffer()).byteLength;

  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'tb_session', value: session, url: base, httpOnly: true, sameSite: 'Strict' }]);
    // From the first byte of the page: note when the 200 cards are in the document and a card
    // button takes focus. (Scripts for the page are strings: tsx would wrap named functions in a
    // helper that exists only in Node.)
    await context.addInitScript(`
      const check = () => {
        if (window.__interactiveAt !== undefined || document.querySelectorAll('li.card').length < 200) return;
        const button = document.querySelector('li.card .card-open');
        button.focus();
        if (document.activeElement !== button) return;
        window.__interactiveAt = performance.now();
        button.blur();
        requestAnimationFrame(() => (window.__paintedAt = performance.now()));
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true });
    `);
    return context;
  };

  // Warm the server (the board's first fetch compiles queries) before measuring.
  {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(boardUrl);
    await page.waitForFunction(() => window.__paintedAt !== undefined);
    await context.close();
  }

  const loads: { interactive: number; painted: number; live: number; bytes: number; byType: Record<string, number> }[] = [];
  for (let i = 0; i < coldLoads; i++) {
    const context = await newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const types = new Map<string, string>();
    const byType: Record<string, number> = {};
    let bytes = 0;
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      const type = types.get(e.requestId) ?? 'Other';
      byType[type] = (byType[type] ?? 0) + e.encodedDataLength;
    });
    await page.goto(boardUrl);
    await page.waitForFunction(() => window.__paintedAt !== undefined, undefined, { timeout: 15_000 });
    await page.locator('[data-live="live"]').waitFor();
    const live = await page.evaluate(() => performance.now());
    await page.waitForTimeout(300); // let late requests finish and be counted
    const { interactive, painted } = await page.evaluate(() => ({ interactive: window.__interactiveAt as number, painted: window.__paintedAt as number }));
    loads.push({ interactive, painted, live, bytes, byType });
    await context.close();
  }

  // A script moves cards while the board is open; the page shows each move.
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(boardUrl);
  await page.locator('[data-live="live"]').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('li.card').length >= 200);
  const latencies: number[] = [];
  const requestTimes: number[] = [];
  for (let i = 0; i < moveCount; i++) {
    const cardId = fixture.cardIds[(i * 37) % fixture.cardIds.length]!;
    const current = await page.evaluate((id: number) => Number(document.querySelector(`li.card[data-card-id="${id}"]`).closest('.list').dataset.listId), cardId);
    const targets = fixture.listIds.filter((l) => l !== current);
    const listId = targets[i % targets.length]!;
    // The page notes the moment the card's tile is in the target list (DOM mutation, before paint).
    await page.evaluate(`
      window.__moved = new Promise((resolve) => {
        const seen = () => document.querySelector('.list[data-list-id="${listId}"] li.card[data-card-id="${cardId}"]') !== null;
        const observer = new MutationObserver(() => {
          if (!seen()) return;
          observer.disconnect();
          resolve(performance.timeOrigin + performance.now());
        });
        observer.observe(document.querySelector('.lists'), { childList: true, subtree: true });
      });
      // Not the promise itself: evaluate would wait for it, and it settles only after the move.
      true;
    `);
    const sent = performance.timeOrigin + performance.now();
    const res = await fetch(`${base}/api/cards/${cardId}/move`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ listId, position: i % 2 === 0 ? 0 : 19 }),
    });
    const answered = performance.timeOrigin + performance.now();
    if (res.status !== 200) throw new Error(`move answered ${res.status}: ${await res.text()}`);
    const shown = (await page.evaluate(() => window.__moved)) as number;
    latencies.push(shown - sent);
    requestTimes.push(answered - sent);
    await page.waitForTimeout(150); // the page's resync settles before the next move
  }
  await context.close();

  const median = (f: (l: (typeof loads)[number]) => number) => quantile(loads.map(f), 0.5);
  const first = loads[0]!;
  console.log(`web app: ${manifest.script}, ${manifest.style}; board JSON ${kb(boardBytes)} (uncompressed)`);
  console.log(`cold loads of the 200-card board (${coldLoads}):`);
  console.log(`  bytes transferred: median ${kb(median((l) => l.bytes))} (${Object.entries(first.byType).map(([t, b]) => `${t} ${kb(b)}`).join(', ')})`);
  console.log(`  navigation start → 200 cards in the page, a card button focusable: median ${ms(median((l) => l.interactive))} (min ${ms(Math.min(...loads.map((l) => l.interactive)))}, max ${ms(Math.max(...loads.map((l) => l.interactive)))})`);
  console.log(`  → next frame: median ${ms(median((l) => l.painted))}; → event stream live: median ${ms(median((l) => l.live))}`);
  console.log(`script move → card in its new list on screen (${moveCount} moves): p50 ${ms(quantile(latencies, 0.5))}, p95 ${ms(quantile(latencies, 0.95))}, max ${ms(Math.max(...latencies))}`);
  console.log(`  (the move request itself: p50 ${ms(quantile(requestTimes, 0.5))}, p95 ${ms(quantile(requestTimes, 0.95))})`);
} finally {
  await browser.close();
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
