/**
 * The help widget under load (#45): 200 visitors of one widget, each with its live stream open
 * (GET …/conversations/{id}/events), ask 20 questions a second in all (open loop: a question is
 * sent every 50 ms whether or not the last was answered) to POST /v1/widgets/{id}/messages; next to
 * it in the same run, the plain POST /v1/answer at the same 20 a second with the same questions.
 * The server is `node --import tsx src/server.ts` (what `npm start` execs) in a child process on an
 * embedded database with 1,000 articles; the load comes from this process over loopback.
 * Prints p50/p95/p99 of each, the 5xx and other refusals, and the server's memory per open stream.
 * The articles are imported just before the server starts, so with semantic ranking on (the default) the server
 * embeds them throughout the run (the first answer starts the build; 1,000 took 273-307 s on PostgreSQL in bench/answers-semantic.ts): this measures the
 * first minutes after an import, the heavier state. BENCH_SEMANTIC=false runs the server with SEMANTIC_RANKING=false.
 * Rate limits are lifted for the run (RATE_LIMIT_MAX): they are per-operator settings, and the
 * question is what the server does at 20 a second, not what a limit refuses.
 * Usage: npx tsx bench/widget.ts [seconds per phase, default 30] [visitors, default 200]
 * BENCH_DATABASE=postgres: the server runs on a fresh database of the local PostgreSQL server
 * (BENCH_DATABASE_URL, as bench/boards.ts) instead of an embedded one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createAgent } from '../src/answers/agents/create-agent.js';
import { createAnswerKey } from '../src/answers/keys/create-answer-key.js';
import { importArticles } from '../src/answers/knowledge/upsert-article.js';
import { openEmbedded, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { createWidget } from '../src/widget/widgets/create-widget.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { freePort } from '../test/net.js';
import { QUESTIONS, thousandArticles } from './answer-knowledge.js';
import { withBenchDatabase } from './bench-database.js';
import { untilUp } from './until-up.js';

const seconds = Number(process.argv[2] ?? 30);
const visitors = Number(process.argv[3] ?? 200);
const RATE = 20;
const ORIGIN = 'https://shop.bench.example';
const root = path.resolve(import.meta.dirname, '..');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

const onPostgres = process.env.BENCH_DATABASE === 'postgres';
const semantic = !['false', '0'].includes(process.env.BENCH_SEMANTIC ?? '');

async function seed(dataDir: string, databaseUrl: string) {
  const db = databaseUrl ? openPostgres({ url: databaseUrl, poolSize: 4 }) : await openEmbedded(dataDir);
  try {
    await migrate(db);
    const user = await db.prisma.user.create({ data: { email: 'widget-bench@example.com', name: 'Bench' } });
    const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
    const agent = await createAgent({ db: db.prisma, workspaceId: workspace.id, input: { name: 'Bench agent' } });
    await importArticles({ db: db.prisma, workspaceId: workspace.id, articles: thousandArticles() });
    const widget = await createWidget({ db: db.prisma, workspaceId: workspace.id, input: { agentId: agent.id, origins: [ORIGIN] } });
    const { token } = await createAnswerKey({ db: db.prisma, workspaceId: workspace.id, name: 'bench' });
    return { widgetId: widget.id, token };
  } finally {
    await db.close();
  }
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** An open event stream, kept open until `close`; resolves once the server has answered with 200. */
function openStream(url: string, headers: Record<string, string>): Promise<{ close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
      res.resume();
      resolve({ close: () => req.destroy() });
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

/** Sends `send(n)` every 1000/RATE ms for `seconds`, whatever the earlier ones are doing; latencies and statuses. */
async function openLoop(send: (n: number) => Promise<number>) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const total = seconds * RATE;
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t0 = performance.now();
        const status = await send(n).catch(() => 0);
        times.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      })(),
    );
  }
  await Promise.all(pending);
  times.sort((a, b) => a - b);
  const count = (test: (s: number) => boolean) => [...statuses].filter(([s]) => test(s)).reduce((a, [, c]) => a + c, 0);
  return { statuses: Object.fromEntries(statuses), p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), ok: count((s) => s >= 200 && s < 300), fivexx: count((s) => s >= 500 || s === 0), refused: count((s) => s >= 400 && s < 500) };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'widget-bench-'));
await (onPostgres ? withBenchDatabase('widget', run) : run(''));

async function run(databaseUrl: string) {
  let server: ChildProcess | null = null;
  const streams: { close(): void }[] = [];
  try {
    const { widgetId, token } = await seed(dataDir, databaseUrl);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000', SEMANTIC_RANKING: semantic ? 'true' : 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await untilUp(`${base}/healthz`, 120);
    const api = `${base}/v1/widgets/${widgetId}`;
    const origin = { origin: ORIGIN };
    // Warm-up: the first answers build the index.
    for (let n = 0; n < 30; n++) await json(await fetch(`${base}/v1/answer`, { method: 'POST', headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: JSON.stringify({ message: QUESTIONS[n % QUESTIONS.length], channel: 'bench' }) }));

    // The visitors: a token each, a first question (their conversation), then their stream, open throughout.
    const people: { token: string; conversationId: string }[] = [];
    for (let i = 0; i < visitors; i += 10) {
      people.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, visitors - i) }, async (_, k) => {
            const { token: visitor } = await json(await fetch(`${api}/visitors`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' }));
            const auth = { ...origin, authorization: `Bearer ${visitor}`, 'content-type': 'application/json' };
            const first = await json(await fetch(`${api}/messages`, { method: 'POST', headers: auth, body: JSON.stringify({ message: QUESTIONS[(i + k) % QUESTIONS.length] }) }));
            return { token: visitor as string, conversationId: first.conversationId as string };
          }),
        )),
      );
    }
    await new Promise((r) => setTimeout(r, 2000));
    const before = rssMb(server.pid!);
    for (const p of people) streams.push(await openStream(`${api}/conversations/${p.conversationId}/events`, { ...origin, authorization: `Bearer ${p.token}` }));
    await new Promise((r) => setTimeout(r, 2000));
    const after = rssMb(server.pid!);

    const widget = await openLoop(async (n) => {
      const p = people[n % people.length]!;
      const res = await fetch(`${api}/messages`, {
        method: 'POST',
        headers: { ...origin, authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: QUESTIONS[n % QUESTIONS.length], conversationId: p.conversationId }),
      });
      await res.arrayBuffer();
      return res.status;
    });
    const answer = await openLoop(async (n) => {
      const res = await fetch(`${base}/v1/answer`, { method: 'POST', headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: JSON.stringify({ message: QUESTIONS[n % QUESTIONS.length], channel: 'bench' }) });
      await res.arrayBuffer();
      return res.status;
    });
    const line = (name: string, r: Awaited<ReturnType<typeof openLoop>>) =>
      `${name}: p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${r.ok} answered, ${r.fivexx} 5xx or failed, ${r.refused} 4xx (by status: ${JSON.stringify(r.statuses)})`;
    console.log(`${visitors} visitors with a stream open each, ${RATE} questions a second for ${seconds} s, 1,000 articles (${semantic ? 'their vectors being built throughout' : 'lexical ranking'}), ${databaseUrl ? 'PostgreSQL' : 'embedded database'}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`);
    console.log(line('widget  POST /v1/widgets/{id}/messages', widget));
    console.log(line('answer  POST /v1/answer (same questions, same rate)', answer));
    console.log(`server memory: ${before.toFixed(0)} MB before the streams, ${after.toFixed(0)} MB with ${visitors} open: ${(((after - before) * 1024) / visitors).toFixed(1)} KB a stream`);
  } finally {
    for (const s of streams) s.close();
    if (server) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
