/**
 * Attachments: upload and download throughput of a 10 MB file, and the server's memory during a
 * 20 MB upload (its peak RSS against its RSS just before; and a 100 MB one, MAX_ATTACHMENT_BYTES
 * raised to 128 MB for it), the server in a process of its own.
 * Usage: npx tsx bench/attachments.ts [runs]   (default 5; PostgreSQL, BENCH_DATABASE_URL)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';

const runs = Number(process.argv[2] ?? 5);
const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '..');

const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** POSTs `file` as multipart/form-data over a fresh connection; resolves with the status and body. */
function upload(port: number, token: string, cardId: number, file: Buffer, name: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: `/api/cards/${cardId}/attachments`,
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + file.length + tail.length },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    // In 1 MB writes, as a browser or curl would stream a file from disk.
    for (let i = 0; i < file.length; i += MB) req.write(file.subarray(i, i + MB));
    req.end(tail);
  });
}

/** GETs the attachment; resolves with its length and SHA-256. */
function download(port: number, token: string, id: number): Promise<{ length: number; sha: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: `/api/attachments/${id}/download`, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`download: ${res.statusCode}`));
        const hash = createHash('sha256');
        let length = 0;
        res.on('data', (d: Buffer) => {
          hash.update(d);
          length += d.length;
        });
        res.on('end', () => resolve({ length, sha: hash.digest('hex') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

await withBenchDatabase('attachments', async (url) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-attachments-'));
  let server: ChildProcess | undefined;
  try {
    const db = openPostgres({ url, poolSize: 2 });
    await migrate(db);
    const user = await db.prisma.user.create({ data: { email: `attachments-${Date.now()}@example.com`, name: 'Attachments' } });
    const board = await db.prisma.board.create({ data: { name: 'Attachments', members: { create: { userId: user.id, role: 'admin' } } } });
    const list = await db.prisma.list.create({ data: { boardId: board.id, name: 'Files', position: 0 } });
    const card = await db.prisma.card.create({ data: { boardId: board.id, listId: list.id, title: 'Files', position: 0 } });
    const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'write', expiresAt: null });
    await db.close();

    const port = await freePort();
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', MIGRATE_ON_START: 'false', MAX_ATTACHMENT_BYTES: String(128 * MB) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; ; i++) {
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
      if (i > 300) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const pid = server.pid!;
    const big = randomBytes(20 * MB);
    /** RSS sampled every 2 ms from just before an upload (20 MB by default) to its response. */
    const measure = async (name: string, data = big) => {
      await new Promise((r) => setTimeout(r, 1000));
      const before = status(pid, 'VmRSS');
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, status(pid, 'VmRSS'))), 2);
      const res = await upload(port, token, card.id, data, name);
      clearInterval(sampler);
      peak = Math.max(peak, status(pid, 'VmRSS'));
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.body}`);
      return { before, peak };
    };
    // The first upload of the process pays for code and queries run for the first time, whatever
    // its size: a 1-byte upload shows that part, then the first 20 MB one.
    const first = await measure('tiny.bin', Buffer.from('x'));
    const cold = await measure('cold.bin');

    // Warm-up: the first requests load code and grow the heap, which is not per-upload cost.
    const warm = randomBytes(10 * MB);
    for (let i = 0; i < 2; i++) {
      const res = await upload(port, token, card.id, warm, 'warm.bin');
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.body}`);
      await download(port, token, JSON.parse(res.body).id);
    }

    const file = randomBytes(10 * MB);
    const sha = createHash('sha256').update(file).digest('hex');
    const up: number[] = [];
    const down: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const res = await upload(port, token, card.id, file, `ten-${i}.bin`);
      up.push(10 / ((performance.now() - t0) / 1000));
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.body}`);
      t0 = performance.now();
      const got = await download(port, token, JSON.parse(res.body).id);
      down.push(10 / ((performance.now() - t0) / 1000));
      if (got.length !== file.length || got.sha !== sha) throw new Error('download differs from the upload');
    }

    // Memory during a 20 MB upload on the warmed-up server.
    const memory = [first, cold];
    for (let i = 0; i < 3; i++) memory.push(await measure(`twenty-${i}.bin`));
    // Five times the size: the growth does not follow the file's size.
    memory.push(await measure('hundred.bin', randomBytes(100 * MB)));
    const hwm = status(pid, 'VmHWM');

    const f = (x: number) => x.toFixed(0);
    console.log(`\n| 10 MB file, ${runs} runs | median MB/s | min | max |`);
    console.log('|---|---|---|---|');
    console.log(`| upload (POST multipart, 201) | ${f(median(up))} | ${f(Math.min(...up))} | ${f(Math.max(...up))} |`);
    console.log(`| download (GET, 200) | ${f(median(down))} | ${f(Math.min(...down))} | ${f(Math.max(...down))} |`);
    console.log('\n| upload | server RSS before | peak during | growth |');
    console.log('|---|---|---|---|');
    const labels = ['1 byte, the first upload of the process', '20 MB, the second upload', ...[1, 2, 3].map((i) => `20 MB after warm-up, run ${i}`), '100 MB after those'];
    memory.forEach(({ before, peak }, i) => console.log(`| ${labels[i]} | ${(before / MB).toFixed(1)} MB | ${(peak / MB).toFixed(1)} MB | +${((peak - before) / MB).toFixed(1)} MB |`));
    console.log(`\nserver VmHWM (peak RSS over its whole life, warm-up included): ${(hwm / MB).toFixed(1)} MB`);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
