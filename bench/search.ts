/**
 * Full-text search on a board of 5,000 cards (PostgreSQL): latency of GET /boards/{id}/search for
 * a mix of queries (single words, phrases, exclusions, rare and common words), through a server
 * started as a child process and driven by autocannon over loopback. The same queries are also
 * run in-process on the embedded database (PGlite, app.inject) for its p50/p99.
 * Usage: npx tsx bench/search.ts [seconds per run] [cards]   (BENCH_DATABASE_URL, default the local server)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { servedPerSecond } from './served.js';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { type Database, openEmbedded, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const seconds = Number(process.argv[2] ?? 5);
const cardCount = Number(process.argv[3] ?? 5000);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

const WORDS = (
  'deploy release migrate database index query cache server client browser mobile login password session token invoice ' +
  'payment refund customer ticket support email webhook export import report chart dashboard search filter sort upload ' +
  'download attachment image resize thumbnail backup restore monitor alert metric latency timeout retry queue worker ' +
  'schedule cron calendar holiday onboarding contract budget forecast hiring interview roadmap design review feedback'
).split(' ');
const QUERIES = ['deploy', 'database migration', '"password reset"', 'invoice -refund', 'webhook or queue', 'thumbnails', 'latency alert', 'zebra', 'onboarding checklist', 'customer email export'];

function sentence(rand: () => number, n: number) {
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

/** A board of `cardCount` cards in 10 lists, with descriptions, checklist items on a quarter and comments on a fifth. */
async function seed(db: Database) {
  let s = 42;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const user = await db.prisma.user.create({ data: { email: `search-bench-${Date.now()}@example.com`, name: 'Bench' } });
  const board = await db.prisma.board.create({ data: { name: 'Search bench', members: { create: { userId: user.id, role: 'admin' } } } });
  const perList = Math.ceil(cardCount / 10);
  for (let l = 0; l < 10; l++) {
    const list = await db.prisma.list.create({ data: { boardId: board.id, name: `List ${l}`, position: l } });
    await db.prisma.card.createMany({
      data: Array.from({ length: perList }, (_, p) => ({
        boardId: board.id,
        listId: list.id,
        title: sentence(rand, 5),
        description: `${sentence(rand, 25)}. ${sentence(rand, 20)}.`,
        position: p,
      })),
    });
  }
  const cards = await db.prisma.card.findMany({ where: { boardId: board.id }, select: { id: true } });
  for (const [i, card] of cards.entries()) {
    if (i % 4 === 0) {
      await db.prisma.checklist.create({
        data: { cardId: card.id, name: 'Steps', position: 0, items: { create: [0, 1, 2].map((position) => ({ name: sentence(rand, 4), position })) } },
      });
    }
    if (i % 5 === 0) {
      await db.prisma.comment.createMany({
        data: [0, 1].map(() => ({ cardId: card.id, authorId: user.id, authorName: user.name, text: sentence(rand, 15) })),
      });
    }
  }
  const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'read', expiresAt: null });
  return { boardId: board.id, token, cards: cards.length };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const results: string[] = [];

await withBenchDatabase('search', async (url) => {
  const db = openPostgres({ url, poolSize: 4 });
  await migrate(db);
  const started = Date.now();
  const { boardId, token, cards } = await seed(db);
  console.log(`seeded ${cards} cards on PostgreSQL in ${Date.now() - started} ms`);
  const matches = [];
  for (const q of QUERIES) {
    const [row] = await db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "Card" WHERE "boardId" = ${boardId} AND search @@ websearch_to_tsquery('english', ${q})`;
    matches.push(`${q}: ${row!.n}`);
  }
  console.log(`cards matching each query (all ranked, 20 returned): ${matches.join('; ')}`);
  await db.close();

  const port = await freePort();
  const child: ChildProcess = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; i < 300 && !(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
    const base = `http://127.0.0.1:${port}/api/boards/${boardId}/search`;
    const sample = await (await fetch(`${base}?q=deploy`, { headers: { authorization: `Bearer ${token}` } })).json() as { cards: unknown[] };
    console.log(`"deploy": ${sample.cards.length} results (limit 20)`);
    for (const connections of [1, 8]) {
      let n = 0;
      const r = await autocannon({
        url: base,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${base.replace(/^http:\/\/[^/]+/, '')}?q=${encodeURIComponent(QUERIES[n++ % QUERIES.length]!)}` }) }],
      });
      results.push(`| PostgreSQL, autocannon | ${connections} | ${servedPerSecond(r).toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`);
    }
  } finally {
    child.kill('SIGTERM');
  }
});

// The embedded database, in-process (PGlite is single-connection: one request at a time).
const dir = await mkdtemp(path.join(os.tmpdir(), 'tb-search-bench-'));
try {
  const db = await openEmbedded(dir);
  await migrate(db);
  const { boardId, token } = await seed(db);
  const app = await buildApp({ events: new EventBus(), config: configFrom({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000' }), db });
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  for (let n = 0; Date.now() < until; n++) {
    const t0 = performance.now();
    const res = await app.inject({ url: `/api/boards/${boardId}/search?q=${encodeURIComponent(QUERIES[n % QUERIES.length]!)}`, headers: { authorization: `Bearer ${token}` } });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
  }
  times.sort((a, b) => a - b);
  results.push(`| embedded (PGlite), app.inject | 1 | ${(times.length / seconds).toFixed(0)} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} | 0 |`);
  await app.close();
  await db.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

console.log(`\nGET /api/boards/{id}/search on a board of ${cardCount} cards, ${QUERIES.length} queries in rotation, ${seconds} s per run.\n`);
console.log('| database | connections | req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|---|');
for (const r of results) console.log(r);
