/**
 * Start-up time: from spawning what `npm start` runs (`node scripts/start.mjs`: the server's bundle;
 * `--source`: `node --import tsx src/server.ts`, the same server from its TypeScript) to the first 200 from
 * /healthz, on a fresh embedded data directory (first start: the baseline copied, or the cluster
 * created and migrated when there is no baseline) and on one that exists (a restart). `--busy N`
 * runs N CPU-bound processes (busy loops) throughout, as #49 measures it: two on two cores.
 * Usage: npx tsx bench/startup.ts [runs] [--busy N] [--source]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const busyAt = args.indexOf('--busy');
const busy = busyAt >= 0 ? Number(args.splice(busyAt, 2)[1]) : 0;
const sourceAt = args.indexOf('--source');
const fromSource = sourceAt >= 0 && args.splice(sourceAt, 1).length > 0;
const command = fromSource ? ['--import', 'tsx', 'src/server.ts'] : ['scripts/start.mjs'];
const runs = Number(args[0] ?? 5);
const port = 3900 + Math.floor(Math.random() * 90);
const root = path.resolve(import.meta.dirname, '..');

/** CPU seconds the process has used (user + system, its threads included), from /proc; NaN elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Wall time to the first 200 from /healthz, and the CPU time the server used until then. */
async function startOnce(dataDir: string): Promise<{ ms: number; cpu: number }> {
  const t0 = performance.now();
  // What `npm start` execs (package.json), one process: its CPU time is the server's.
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) return { ms: performance.now() - t0, cpu: cpuSeconds(child.pid!) };
      } catch {
        // not listening yet
      }
      if (performance.now() - t0 > 120_000) throw new Error('server did not start within 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

// A start after a source change rebuilds the web build and the bundle first; that is not measured here.
if (!fromSource) await (await import('../scripts/server-bundle.mjs')).buildWhatIsStale();
const hogs: ChildProcess[] = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const baseline = existsSync(path.join(root, 'prisma/baseline/manifest.json'));
const dir = mkdtempSync(path.join(tmpdir(), 'startup-'));
try {
  const firsts: { ms: number; cpu: number }[] = [];
  const restarts: { ms: number; cpu: number }[] = [];
  // Each round: a new data directory's first start, then restarts on it.
  for (let i = 0; i < runs; i++) {
    const data = path.join(dir, String(i));
    firsts.push(await startOnce(data));
    restarts.push(await startOnce(data));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const summary = (xs: { ms: number; cpu: number }[]) =>
    `median ${median(xs.map((x) => x.ms)).toFixed(0)} ms, max ${Math.max(...xs.map((x) => x.ms)).toFixed(0)} ms over ${xs.length} runs; ` +
    `the server's CPU time median ${median(xs.map((x) => x.cpu)).toFixed(2)} s`;
  console.log(`${fromSource ? 'from source (tsx)' : 'from the bundle (npm start)'}, node ${process.version}, beside ${busy} CPU-bound processes; ${baseline ? 'with' : 'WITHOUT'} the baseline (prisma/baseline)`);
  console.log(`first start on an empty data dir: ${summary(firsts)}`);
  console.log(`restart on that data dir: ${summary(restarts)}`);
} finally {
  for (const hog of hogs) hog.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
