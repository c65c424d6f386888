/**
 * The answer API's speed: POST /v1/answer with the offline generator over 1,000 articles, for
 * one-sentence customer questions (the evaluation's), on PostgreSQL (server child process, over
 * loopback) and on the embedded database (in-process, app.inject); throughput at 8 connections
 * next to a floor doing the same database work with no retrieval (bench/answer-floor-server.ts);
 * the first answer after a knowledge change (index rebuild); and reading a 20-page PDF.
 * The lexical path (SEMANTIC_RANKING=false): with meaning on, the server would be embedding the 1,000 articles just
 * imported for the whole run, a mix of two states; bench/answers-semantic.ts measures the build and the steady state
 * with vectors apart, next to this path in the same run.
 * Usage: npx tsx bench/answers.ts [seconds per throughput run]   (BENCH_DATABASE_URL, default the local server)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { servedPerSecond } from './served.js';
import { untilUp } from './until-up.js';
import type { FastifyInstance } from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createAgent } from '../src/answers/agents/create-agent.js';
import { createAnswerKey } from '../src/answers/keys/create-answer-key.js';
import { importArticles, upsertArticle } from '../src/answers/knowledge/upsert-article.js';
import { AttachmentReader } from '../src/answers/attachment-reader/reader-pool.js';
import { readAttachments } from '../src/answers/read-attachments.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { type Database, openEmbedded, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';
import { base, QUESTIONS, thousandArticles } from './answer-knowledge.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const seconds = Number(process.argv[2] ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

async function seed(db: Database) {
  const user = await db.prisma.user.create({ data: { email: `answer-bench-${Date.now()}@example.com`, name: 'Bench' } });
  const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
  const agent = await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Bench agent' } });
  const t0 = performance.now();
  await importArticles({ db: db.prisma, workspaceId: workspace.id, articles: thousandArticles() });
  const importMs = performance.now() - t0;
  const { token } = await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'bench' });
  return { workspaceId: workspace.id, agentId: agent.id, token, importMs };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const body = (n: number) => JSON.stringify({ message: QUESTIONS[n % QUESTIONS.length], channel: 'bench' });

/** Sequential calls (one connection): latency percentiles in ms. */
async function sequential(call: (n: number) => Promise<void>, count: number) {
  for (let n = 0; n < 30; n++) await call(n); // warm-up: the first call builds the index
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const t0 = performance.now();
    await call(n);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function throughput(url: string, headers: Record<string, string>, connections: number) {
  let n = 0;
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: body(n++) }) }],
  });
  return { rps: servedPerSecond(r), p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

/** Time of the first answer after one article changed (the index is rebuilt) vs a warm one. */
async function rebuildCost(app: FastifyInstance, db: Database, workspaceId: number, token: string) {
  const ask = async () => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': token }, payload: { message: 'how do i reset my password' } });
    if (res.statusCode !== 200) throw new Error(res.body);
    return performance.now() - t0;
  };
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    await upsertArticle({ db: db.prisma, workspaceId, article: { externalId: 'gen-500', title: `Changed ${i}`, body: `A changed article, version ${i}.` } });
    cold.push(await ask());
  }
  cold.sort((a, b) => a - b);
  return cold[2]!;
}

const rows: string[] = [];

await withBenchDatabase('answers', async (url) => {
  const db = openPostgres({ url, poolSize: 4 });
  await migrate(db);
  const { agentId, token, importMs } = await seed(db);
  console.log(`imported 1,000 articles on PostgreSQL in ${importMs.toFixed(0)} ms; ${QUESTIONS.length} questions in rotation`);

  const port = await freePort();
  const child: ChildProcess = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', LLM_BASE_URL: '', SEMANTIC_RANKING: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const floorPort = await freePort();
  const floor: ChildProcess = spawn(tsx, ['bench/answer-floor-server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(floorPort), AGENT_ID: agentId },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await untilUp(`http://127.0.0.1:${port}/healthz`, 30);
    const lat = await sequential(async (n) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/answer`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': token }, body: body(n) });
      if (res.status !== 200) throw new Error(`answer ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }, 400);
    rows.push(`| PostgreSQL, 1 connection, sequential fetch | ${lat.p50.toFixed(1)} | ${lat.p99.toFixed(1)} | | |`);
    for (let i = 0; i < 100 && !(await fetch(`http://127.0.0.1:${floorPort}/floor/answer`, { method: 'POST' }).then(() => true, () => false)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const ours = await throughput(`http://127.0.0.1:${port}/v1/answer`, { 'x-api-key': token }, 8);
    const bare = await throughput(`http://127.0.0.1:${floorPort}/floor/answer`, {}, 8);
    rows.push(`| PostgreSQL, 8 connections, autocannon | ${ours.p50} | ${ours.p99} | ${ours.rps.toFixed(0)} (errors ${ours.errors}) | ${bare.rps.toFixed(0)} (${((ours.rps / bare.rps) * 100).toFixed(0)} %) |`);
  } finally {
    child.kill('SIGTERM');
    floor.kill('SIGTERM');
  }
  await db.close();
});

const dir = await mkdtemp(path.join(os.tmpdir(), 'tb-answer-bench-'));
try {
  const db = await openEmbedded(dir);
  await migrate(db);
  const { token, workspaceId, importMs } = await seed(db);
  console.log(`imported 1,000 articles on the embedded database in ${importMs.toFixed(0)} ms`);
  const app = await buildApp({ events: new EventBus(), config: configFrom({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000', SEMANTIC_RANKING: 'false' }), db });
  const lat = await sequential(async (n) => {
    const res = await app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': token, 'content-type': 'application/json' }, payload: body(n) });
    if (res.statusCode !== 200) throw new Error(`answer ${res.statusCode}: ${res.body}`);
  }, 400);
  rows.push(`| embedded (PGlite), in-process app.inject | ${lat.p50.toFixed(1)} | ${lat.p99.toFixed(1)} | | |`);
  const rebuild = await rebuildCost(app, db, workspaceId, token);
  rows.push(`| embedded, first answer after a knowledge change (index rebuilt, 1 of 1,000 articles re-tokenised), median of 5 | ${rebuild.toFixed(1)} | | | |`);
  await app.close();
  await db.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

// A 20-page PDF of help-centre text, read as an attachment is.
const pdf = await PDFDocument.create();
const font = await pdf.embedFont(StandardFonts.Helvetica);
for (let p = 0; p < 20; p++) {
  const page = pdf.addPage();
  const words = base[p % base.length]!.body.replace(/[^\x20-\x7e]/g, ' ').split(/\s+/);
  for (let line = 0; line < 45; line++) page.drawText(words.slice(line * 12, line * 12 + 12).join(' ') || '-', { x: 40, y: 800 - line * 17, size: 10, font });
}
const pdfBase64 = Buffer.from(await pdf.save()).toString('base64');
const pdfTimes: number[] = [];
let textLength = 0;
// One reader, started before the first timed read as a server's would be after its first attachment.
const reader = new AttachmentReader({ size: 1, maxQueue: 1, timeoutMs: 10_000, log: console });
await reader.read([{ kind: 'image', contentBase64: '' }]);
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  const read = await readAttachments({ attachments: [{ mime: 'application/pdf', contentBase64: pdfBase64, filename: 'manual.pdf' }], reader });
  pdfTimes.push(performance.now() - t0);
  textLength = read.text.length;
}
await reader.close();
pdfTimes.sort((a, b) => a - b);

console.log(`\nPOST /v1/answer, offline generator, lexical ranking (SEMANTIC_RANKING=false), 1,000 articles, one-sentence questions in rotation; ${seconds} s per throughput run.\n`);
console.log('| run | p50 ms | p99 ms | answers/s | floor answers/s (ours / floor) |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\n20-page PDF (${(pdfBase64.length / 1024).toFixed(0)} KB base64, ${textLength} characters read): median ${percentile(pdfTimes, 50).toFixed(0)} ms, max ${pdfTimes.at(-1)!.toFixed(0)} ms over ${pdfTimes.length} reads`);
