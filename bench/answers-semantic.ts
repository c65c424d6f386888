/**
 * The answer API with semantic ranking (the built-in sentence encoder) over 1,000 articles on
 * PostgreSQL, the server in a child process: how long the knowledge's vectors take to compute in the
 * background, answer latency while they are computed (an import of 1,000 articles answered
 * throughout), then latency sequentially and at 8 connections with every vector there, next to the
 * same server with SEMANTIC_RANKING=false in the same run.
 * First, in-process, what confirmed answers add to an answer (issue #47 item 2): the lookup of the message among
 * the agent's confirmed messages (decision/confirmed-answers.ts) over the same 1,000 articles, with 0, 200 and 2,000
 * (the most read per workspace) confirmations.
 * Usage: npx tsx bench/answers-semantic.ts [seconds per throughput run]   (BENCH_DATABASE_URL, default the local server)
 *        npx tsx bench/answers-semantic.ts --confirmed   (the confirmed-answer lookup alone: no database, no server)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { servedPerSecond } from './served.js';
import { createAgent } from '../src/answers/agents/create-agent.js';
import { createAnswerKey } from '../src/answers/keys/create-answer-key.js';
import { importArticles } from '../src/answers/knowledge/upsert-article.js';
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';
import { QUESTIONS, thousandArticles } from './answer-knowledge.js';
import { type Confirmation, matchConfirmations } from '../src/answers/decision/confirmed-answers.js';
import { matchTerms } from '../src/answers/decision/confirmed-match.js';
import { KnowledgeIndex, prepareArticle } from '../src/answers/retrieval/knowledge-index.js';

const seconds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
// Each call a question of its own, so no vector or answer comes from a cache.
const body = (n: number) => JSON.stringify({ message: `${QUESTIONS[n % QUESTIONS.length]}${n >= QUESTIONS.length ? ` (${n})` : ''}`, channel: 'bench' });

async function startServer(url: string, semantic: boolean): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', LLM_BASE_URL: '', SEMANTIC_RANKING: String(semantic), OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Two minutes: a loaded machine takes long to start a tsx server.
  for (let i = 0; i < 1200; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) return { port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

async function ask(port: number, token: string, n: number) {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/v1/answer`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': token }, body: body(n) });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - t0;
}

async function sequential(port: number, token: string, count: number, offset: number) {
  const times: number[] = [];
  for (let n = 0; n < count; n++) times.push(await ask(port, token, offset + n));
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

async function concurrent(port: number, token: string, connections: number, offset: number) {
  let n = offset;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}/v1/answer`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': token },
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: body(n++) }) }],
  });
  return { rps: servedPerSecond(r), p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

/**
 * The time matchConfirmations takes per message (p50 / p99 over every question, 20 rounds), with `count` confirmations
 * of the answering agent made of the questions themselves and variants of them (the worst case: every one is compared).
 */
function confirmedLookup(index: KnowledgeIndex, count: number) {
  const messages = QUESTIONS.slice(0, 200);
  const confirmations: Confirmation[] = Array.from({ length: count }, (_, i) => {
    const question = `${messages[i % messages.length]}${i >= messages.length ? ` ${i}` : ''}`;
    const article = index.articles[i % index.articles.length]!.doc;
    return { turnId: i + 1, conversationId: 'cnv', agentId: 'agt', question, terms: matchTerms(question, { index }), verdict: 'wrong', article: { id: article.id, externalId: article.externalId, title: article.title }, by: null, at: new Date(), held: null };
  });
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const message of messages) {
      const t0 = performance.now();
      matchConfirmations({ confirmations, message, agentId: 'agt', index });
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

{
  const index = new KnowledgeIndex(thousandArticles().map((a, i) => prepareArticle({ id: i + 1, externalId: a.externalId, title: a.title, body: a.body, url: null })));
  console.log('| confirmed-answer lookup per message, 1,000 articles | p50 | p99 |\n|---|---|---|');
  for (const count of [0, 200, 2000]) {
    const r = confirmedLookup(index, count);
    console.log(`| ${count} confirmations | ${(r.p50 * 1000).toFixed(0)} µs | ${(r.p99 * 1000).toFixed(0)} µs |`);
  }
  if (process.argv.includes('--confirmed')) process.exit(0);
}

await withBenchDatabase('semantic answers', async (url) => {
  const db = openPostgres({ url, poolSize: 4 });
  await migrate(db);
  const user = await db.prisma.user.create({ data: { email: `semantic-bench-${Date.now()}@example.com`, name: 'Bench' } });
  const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
  await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Bench agent' } });
  const { token } = await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'bench' });
  await importArticles({ db: db.prisma, workspaceId: workspace.id, articles: thousandArticles() });
  const vectors = () => db.prisma.articleVector.count({ where: { workspaceId: workspace.id } });

  const rows: string[] = [];
  const semantic = await startServer(url, true);
  try {
    // The first answer starts the build; answers go on, one after another, while it runs.
    const t0 = performance.now();
    const during: number[] = [];
    let n = 0;
    await ask(semantic.port, token, n++);
    let done = 0;
    while ((done = await vectors()) < 1000 && performance.now() - t0 < 30 * 60_000) {
      for (let i = 0; i < 20; i++) during.push(await ask(semantic.port, token, n++));
    }
    const buildS = (performance.now() - t0) / 1000;
    during.sort((a, b) => a - b);
    console.log(`vectors of ${done} articles computed in the background in ${buildS.toFixed(0)} s; ${during.length} answers meanwhile: p50 ${pct(during, 50).toFixed(1)} ms, p99 ${pct(during, 99).toFixed(1)} ms, max ${during.at(-1)!.toFixed(1)} ms`);
    rows.push(`| while the vectors of 1,000 articles are computed (${buildS.toFixed(0)} s) | ${pct(during, 50).toFixed(1)} ms | ${pct(during, 99).toFixed(1)} ms | max ${during.at(-1)!.toFixed(0)} ms | – |`);
    for (let i = 0; i < 20; i++) await ask(semantic.port, token, n++); // warm-up with every vector loaded
    const seq = await sequential(semantic.port, token, 200, 10_000);
    rows.push(`| semantic, sequential | ${seq.p50.toFixed(1)} ms | ${seq.p99.toFixed(1)} ms | – | – |`);
    const c8 = await concurrent(semantic.port, token, 8, 20_000);
    rows.push(`| semantic, 8 connections | ${c8.p50} ms | ${c8.p99} ms | ${c8.rps.toFixed(0)} answers/s | ${c8.errors} errors |`);
  } finally {
    semantic.child.kill();
  }
  const lexical = await startServer(url, false);
  try {
    for (let i = 0; i < 20; i++) await ask(lexical.port, token, i);
    const seq = await sequential(lexical.port, token, 200, 30_000);
    rows.push(`| lexical (SEMANTIC_RANKING=false), sequential | ${seq.p50.toFixed(1)} ms | ${seq.p99.toFixed(1)} ms | – | – |`);
    const c8 = await concurrent(lexical.port, token, 8, 40_000);
    rows.push(`| lexical, 8 connections | ${c8.p50} ms | ${c8.p99} ms | ${c8.rps.toFixed(0)} answers/s | ${c8.errors} errors |`);
  } finally {
    lexical.child.kill();
    await db.close();
  }
  console.log('\n| POST /v1/answer, 1,000 articles, PostgreSQL | p50 | p99 | throughput | |\n|---|---|---|---|---|');
  for (const r of rows) console.log(r);
});
