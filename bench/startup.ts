/**
 * Start-up time: from spawning `tsx src/server.ts` (what `npm start` runs) to the first 200 from
 * /healthz, on an embedded data directory that already exists (a restart), and on a fresh one.
 * Usage: npx tsx bench/startup.ts [runs]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const port = 3900 + Math.floor(Math.random() * 90);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

async function startOnce(dataDir: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      if (performance.now() - t0 > 30_000) throw new Error('server did not start within 30 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'startup-'));
try {
  const first = await startOnce(dir);
  const restarts: number[] = [];
  for (let i = 0; i < runs; i++) restarts.push(await startOnce(dir));
  restarts.sort((a, b) => a - b);
  const median = restarts[Math.floor(restarts.length / 2)]!;
  console.log(`first start (creates the database): ${first.toFixed(0)} ms`);
  console.log(`restart on existing data dir: median ${median.toFixed(0)} ms, max ${restarts.at(-1)!.toFixed(0)} ms over ${runs} runs`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
