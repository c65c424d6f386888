/**
 * Live events at scale: N open streams on one board of one server process while cards are moved.
 * Reports delivery latency (from sending the move request, an upper bound of its commit, to the
 * last stream's receipt of its event), events lost, and the server's memory per idle stream.
 * Usage: npx tsx bench/streams.ts [N …]   (default 1000 5000 10000; PostgreSQL, BENCH_DATABASE_URL)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const counts = sizes.length ? sizes : [1000, 5000, 10000];
const MOVES = 40;
const root = path.resolve(import.meta.dirname, '..');


const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** A raw-socket SSE client: counts events by id and notes when each arrived. */
function openStream(port: number, path: string, token: string, onEvent: (id: number) => void): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    let buffer = '';
    let ready = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (!ready && buffer.includes('retry:')) {
        ready = true;
        resolve(socket);
      }
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const m = /^id: (\d+)$/m.exec(block);
        if (m) onEvent(Number(m[1]));
      }
    });
    socket.on('error', reject);
  });
}

await withBenchDatabase('stream', async (url) => {
let server: ChildProcess | undefined;
const rows: string[] = [];
try {
  const db = openPostgres({ url, poolSize: 2 });
  await migrate(db);
  const user = await db.prisma.user.create({ data: { email: `streams-${Date.now()}@example.com`, name: 'Streams' } });
  const board = await db.prisma.board.create({ data: { name: 'Streams', members: { create: { userId: user.id, role: 'admin' } } } });
  const lists = await Promise.all([0, 1].map((position) => db.prisma.list.create({ data: { boardId: board.id, name: `L${position}`, position } })));
  const card = await db.prisma.card.create({ data: { boardId: board.id, listId: lists[0]!.id, title: 'Mover', position: 0 } });
  const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'streams', permission: 'write', expiresAt: null });
  await db.close();

  const port = await freePort();
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', MIGRATE_ON_START: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500));
  // Warm-up: the first streams pay for code loading and heap growth, which is not per-stream cost.
  const warm: net.Socket[] = [];
  for (let i = 0; i < 2000; i += 250) {
    warm.push(...(await Promise.all(Array.from({ length: 250 }, () => openStream(port, `/api/boards/${board.id}/events`, token, () => {})))));
  }
  for (const s of warm) s.destroy();
  await new Promise((r) => setTimeout(r, 2000));
  // One baseline for every N: RSS grows in steps and rarely shrinks, so per-round deltas mislead.
  const baseline = rssKb(server.pid!);

  for (const n of counts) {
    const received = new Map<number, { count: number; last: number }>();
    const sockets: net.Socket[] = [];
    const onEvent = (id: number) => {
      const r = received.get(id) ?? { count: 0, last: 0 };
      r.count++;
      r.last = performance.now();
      received.set(id, r);
    };
    for (let i = 0; i < n; i += 250) {
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(250, n - i) }, () => openStream(port, `/api/boards/${board.id}/events`, token, onEvent)))));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rssKb(server.pid!);

    const sentAt = new Map<number, number>();
    for (let m = 0; m < MOVES; m++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/cards/${card.id}/move`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ listId: lists[(m + 1) % 2]!.id }),
      });
      if (res.status !== 200) throw new Error(`move failed: ${res.status}`);
      await res.arrayBuffer();
      const [latest] = await (await fetch(`http://127.0.0.1:${port}/api/boards/${board.id}/activity?limit=1`, { headers: { authorization: `Bearer ${token}` } })).json().then((b) => (b as { activities: { id: number }[] }).activities);
      if (latest) sentAt.set(latest.id, t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 3000));
    const latencies: number[] = [];
    let lost = 0;
    for (const [id, t0] of sentAt) {
      const r = received.get(id);
      lost += n - (r?.count ?? 0);
      if (r) latencies.push(r.last - t0);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(0);
    rows.push(`| ${n} | ${MOVES} | ${pct(0.5)} | ${pct(0.99)} | ${lost} | ${(idle / 1024).toFixed(0)} MB | ${((idle - baseline) / n).toFixed(1)} KB |`);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 2000));
  }
} finally {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
}
  console.log('\n| streams | moves | latency p50 ms | latency p99 ms | events lost | server RSS, streams idle | RSS over the warmed-up baseline, per stream |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
});
