/**
 * Webhook delivery, on PostgreSQL with the server as a child process and a fast receiver in a
 * process of its own: tickets created per second with a webhook subscribed (autocannon, 8
 * connections); time from a ticket's commit to its delivery's arrival; and sustained deliveries
 * per second draining a backlog, next to a floor measured in the same run (a bare loop of signed
 * POSTs to the same receiver, bench/webhook-floor.ts).
 * Usage: npx tsx bench/webhooks.ts [seconds] [backlog]   (BENCH_DATABASE_URL, default the local server)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { servedPerSecond } from './served.js';
import { untilUp } from './until-up.js';
import { publicId } from '../src/accounts/credentials/tokens.js';
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { regenerateWorkspaceToken } from '../src/tickets/regenerate-workspace-token.js';
import { createEndpoint } from '../src/webhooks/create-endpoint.js';
import { createWorkspace } from '../src/workspaces/create-workspace.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';

const seconds = Number(process.argv[2] ?? 5);
const backlog = Number(process.argv[3] ?? 5000);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await withBenchDatabase('webhooks', async (url) => {
  const db = openPostgres({ url, poolSize: 4 });
  await migrate(db);
  const receiverPort = await freePort();
  const receiverUrl = `http://127.0.0.1:${receiverPort}`;
  const arrivals = async () => (await (await fetch(`${receiverUrl}/arrivals`)).json()) as { id: string; at: number }[];
  const receiver = spawn(tsx, ['bench/webhook-receiver-server.ts'], { cwd: root, env: { ...process.env, PORT: String(receiverPort) }, stdio: ['ignore', 'ignore', 'inherit'] });

  const user = await db.prisma.user.create({ data: { email: `webhook-bench-${Date.now()}@example.com`, name: 'Bench' } });
  const workspace = await createWorkspace({ db: db.prisma, name: 'Bench', ownerId: user.id });
  const { token } = await regenerateWorkspaceToken({ db: db.prisma, workspaceId: workspace.id });
  const { endpoint } = await createEndpoint({ db: db.prisma, owner: { workspaceId: workspace.id }, input: { url: `${receiverUrl}/hooks` }, allowPrivate: true });

  const port = await freePort();
  const server: ChildProcess = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    // No load shedding: on a loaded machine the event loop's lag would turn tickets into 503s mid-benchmark.
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', WEBHOOK_ALLOW_PRIVATE: 'true', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const ticketBody = JSON.stringify({ subject: 'Bench ticket', requester: { email: 'bench@customer.example' } });
  try {
    await untilUp(`${base}/healthz`, 30);
    await untilUp(`${receiverUrl}/arrivals`, 30);

    // 1. Commit → arrival, one ticket at a time with a pause between them (the happy path).
    const created: { id: number; createdAt: string }[] = [];
    for (let i = 0; i < 230; i++) {
      const res = await fetch(`${base}/v1/tickets`, { method: 'POST', headers, body: ticketBody });
      if (res.status !== 201) throw new Error(`ticket ${res.status}`);
      const ticket = (await res.json()) as { id: number; createdAt: string };
      if (i >= 30) created.push(ticket); // the first 30 warm up
      await sleep(20);
    }
    await sleep(1000);
    const events = await db.prisma.webhookEvent.findMany({ select: { id: true, body: true } });
    const eventOf = new Map(events.map((e) => [(JSON.parse(e.body) as { data: { id: number } }).data.id, e.id]));
    const arrivedAt = new Map((await arrivals()).map((a) => [a.id, a.at]));
    const latencies = created.map((t) => arrivedAt.get(eventOf.get(t.id)!)! - Date.parse(t.createdAt)).sort((a, b) => a - b);
    if (latencies.some((l) => !Number.isFinite(l))) throw new Error('a delivery did not arrive');

    // 2. Tickets per second without a webhook (the endpoint paused), then with it, and how long the deliveries take to catch up.
    await db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    const bare = await autocannon({ url: `${base}/v1/tickets`, connections: 8, duration: seconds, method: 'POST', headers, body: ticketBody });
    await db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: true } });
    await fetch(`${receiverUrl}/arrivals`, { method: 'DELETE' });
    const load = await autocannon({ url: `${base}/v1/tickets`, connections: 8, duration: seconds, method: 'POST', headers, body: ticketBody });
    const loadEnd = Date.now();
    const expected = await db.prisma.webhookDelivery.count({ where: { status: { not: 'succeeded' } } });
    let caughtUp = loadEnd;
    for (let i = 0; i < 600; i++) {
      const pending = await db.prisma.webhookDelivery.count({ where: { status: 'pending' } });
      if (pending === 0) {
        caughtUp = Date.now();
        break;
      }
      await sleep(50);
    }

    // 3. Sustained deliveries: a backlog of due deliveries, drained by the dispatcher.
    await fetch(`${receiverUrl}/arrivals`, { method: 'DELETE' });
    const body = JSON.stringify({ type: 'ticket.created', timestamp: new Date().toISOString(), data: { id: 1, subject: 'Bench ticket', description: '', priority: 'normal', status: 'open' } });
    const due = new Date(Date.now() + 3000);
    for (let i = 0; i < backlog; i += 1000) {
      const ids = Array.from({ length: Math.min(1000, backlog - i) }, () => publicId('msg_', 24));
      await db.prisma.webhookEvent.createMany({ data: ids.map((id) => ({ id, workspaceId: workspace.id, type: 'ticket.created', body })) });
      await db.prisma.webhookDelivery.createMany({ data: ids.map((eventId) => ({ eventId, endpointId: endpoint.id, nextAttemptAt: due })) });
    }
    let got: { at: number }[] = [];
    for (let i = 0; i < 1200 && got.length < backlog; i++) {
      await sleep(100);
      got = await arrivals();
    }
    if (got.length < backlog) throw new Error(`only ${got.length} of ${backlog} backlog deliveries arrived`);
    const times = got.map((a) => a.at).sort((a, b) => a - b);
    const sustained = (backlog - 1) / ((times.at(-1)! - times[0]!) / 1000);

    await fetch(`${receiverUrl}/arrivals`, { method: 'DELETE' });
    const floorRun = spawnSync(tsx, ['bench/webhook-floor.ts', `${receiverUrl}/hooks`, String(backlog)], { cwd: root, encoding: 'utf8' });
    if (floorRun.status !== 0) throw new Error(floorRun.stderr);
    const floor = (JSON.parse(floorRun.stdout.trim()) as { perSecond: number }).perSecond;

    console.log(`\nWebhooks on PostgreSQL (server child process, receiver in its own process, loopback); ${seconds} s of load, backlog ${backlog}.\n`);
    console.log('| measure | result |');
    console.log('|---|---|');
    console.log(`| ticket commit → delivery arrival, ${latencies.length} tickets one at a time | p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms |`);
    console.log(`| tickets created per second, 8 connections, no webhook | ${servedPerSecond(bare).toFixed(0)} (p50 ${bare.latency.p50} ms, p99 ${bare.latency.p99} ms, non-2xx ${bare.non2xx + bare.errors}) |`);
    console.log(`| tickets created per second, 8 connections, webhook subscribed | ${servedPerSecond(load).toFixed(0)} (p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, non-2xx ${load.non2xx + load.errors}) |`);
    console.log(`| deliveries of that load still pending when it ended | ${expected}; all delivered ${((caughtUp - loadEnd) / 1000).toFixed(1)} s later |`);
    console.log(`| sustained deliveries per second (backlog of ${backlog}) | ${sustained.toFixed(0)} |`);
    console.log(`| floor: bare signed POSTs per second, 16 at a time | ${floor.toFixed(0)} (ours ${((sustained / floor) * 100).toFixed(0)} %) |`);
  } finally {
    server.kill('SIGTERM');
    receiver.kill('SIGTERM');
    await db.close();
  }
});
