/**
 * Card moves (or cached board fetches) of this tree against another tree's, both started as `npm start` starts them, paired:
 * both servers are up together, each on a database of its own on the same PostgreSQL, migrated by
 * its own tree and seeded alike (board-seed.ts), and short runs of each alternate, the order
 * swapped every round. bench/boards.ts compares each server with a floor measured in the same run;
 * comparing two trees through it means runs minutes apart, and on a shared 2-core machine the
 * floor itself moved 18-30 % between such runs, more than the difference sought. Here each of our
 * runs has the other tree's a few seconds away, so what drifts over minutes drifts for both.
 *
 * Usage: npx tsx bench/compare-trees.ts <other tree> [rounds, 10] [seconds per run, 3] [moves | board]
 * (board: GET of the 200-card board, from the board cache after the first, as bench/boards.ts's cached rows)
 * The other tree needs its own node_modules (and generated Prisma client and web build) and
 * `scripts/start.mjs`; a tree from before the server's bundle (#49) gets this tree's
 * scripts/server-bundle.mjs and scripts/start.mjs copied in. Its database is seeded by this tree's
 * board-seed.ts through its own Prisma client, so its schema must have what that writes (labels,
 * custom fields, checklists, comments). BENCH_DATABASE_URL as bench/boards.ts.
 * Prints each round, then per concurrency the medians: requests a second, the paired ratio (this
 * tree's over the other's, run by run), the server's CPU per request and PostgreSQL's.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { servedPerSecond } from './served.js';
import pg from 'pg';
import { freePort } from '../test/net.js';
import { withBenchDatabase } from './bench-database.js';
import { randomMoveOn, seedBoards } from './board-seed.js';
import { untilUp } from './until-up.js';
import { postmasterOf, processTreeCpuMs } from './process-cpu.js';

const root = path.resolve(import.meta.dirname, '..');

// A child of this script migrates and seeds one tree's database with that tree's own code.
if (process.argv[2] === '--seed') {
  const [tree, url] = process.argv.slice(3) as [string, string];
  const { openPostgres } = (await import(path.join(tree, 'src/platform/db.ts'))) as typeof import('../src/platform/db.js');
  const migrateModule = await import(path.join(tree, 'src/platform/database/migrate.ts')).catch(() => import(path.join(tree, 'src/platform/migrate.ts')));
  const { createApiKey } = (await import(path.join(tree, 'src/accounts/keys/create-api-key.ts'))) as typeof import('../src/accounts/keys/create-api-key.js');
  const db = openPostgres({ url, poolSize: 2 });
  await (migrateModule as typeof import('../src/platform/database/migrate.js')).migrate(db);
  const seeded = await seedBoards(db.prisma);
  const { token } = await createApiKey({ db: db.prisma, userId: seeded.userId, name: 'bench', permission: 'write', expiresAt: null });
  console.log(JSON.stringify({ token, board: seeded.small, lists: seeded.smallLists, cards: seeded.smallCards }));
  process.exit(0);
}

const other = path.resolve(process.argv[2] ?? '');
if (!process.argv[2]) throw new Error('usage: npx tsx bench/compare-trees.ts <other tree> [rounds] [seconds per run] [moves | board]');
const rounds = Number(process.argv[3] ?? 10);
const seconds = Number(process.argv[4] ?? 3);
const what = process.argv[5] ?? 'moves';
if (what !== 'moves' && what !== 'board') throw new Error(`what to compare: moves or board, not ${what}`);
const CONNECTIONS = [1, 8, 32];

interface Side {
  name: 'this' | 'other';
  tree: string;
  url: string;
  port: number;
  seed: { token: string; board: number; lists: number[]; cards: number[] };
  server?: ChildProcess;
  db?: pg.Client;
}
interface Run { rps: number; cpu: number; pg: number }

const revision = (tree: string) => {
  const rev = execFileSync('git', ['-C', tree, 'rev-parse', '--short', 'HEAD']).toString().trim();
  const dirty = execFileSync('git', ['-C', tree, 'status', '--porcelain', '--untracked-files=no']).toString().trim();
  return dirty ? `${rev} (with uncommitted changes)` : rev;
};

await withBenchDatabase('compare-trees', (thisUrl) =>
  withBenchDatabase('compare-trees', async (otherUrl) => {
    const sides: Side[] = [];
    for (const [name, tree, url] of [['this', root, thisUrl], ['other', other, otherUrl]] as const) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/compare-trees.ts'), '--seed', tree, url], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      sides.push({ name, tree, url, port: await freePort(), seed: JSON.parse(out.toString().trim().split('\n').at(-1)!) });
    }
    console.log(`${what === 'moves' ? 'card moves' : 'cached 200-card board fetches'}: this tree ${revision(root)}, the other ${other} at ${revision(other)}; ${rounds} rounds of ${seconds}-s runs`);
    try {
      for (const side of sides) {
        side.server = spawn(process.execPath, ['scripts/start.mjs'], {
          cwd: side.tree,
          env: { ...process.env, DATABASE_URL: side.url, PORT: String(side.port), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        side.db = new pg.Client({ connectionString: side.url });
        await side.db.connect();
      }
      await Promise.all(sides.map((side) => untilUp(`http://127.0.0.1:${side.port}/healthz`, 180)));
      const backend = (await sides[0]!.db!.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const postmaster = postmasterOf(backend);
      const dbCpu = () => (postmaster ? processTreeCpuMs(postmaster, true) : 0);

      const burst = async (side: Side, connections: number, duration: number): Promise<Run> => {
        // Each run starts from a vacuumed table, as bench/boards.ts's do (this machine's PostgreSQL runs with autovacuum off).
        await side.db!.query('VACUUM "Card", "List"');
        const cpu = processTreeCpuMs(side.server!.pid!);
        const db = dbCpu();
        const result = await autocannon({
          url: `http://127.0.0.1:${side.port}`,
          connections,
          duration,
          headers: { authorization: `Bearer ${side.seed.token}`, 'content-type': 'application/json' },
          ...(what === 'moves' ? { requests: [{ method: 'POST', setupRequest: randomMoveOn('/api', side.seed) }] } : { path: `/api/boards/${side.seed.board}` }),
        });
        if (result.non2xx || result.errors || result.timeouts) {
          console.error(`${side.name} at c = ${connections}: statuses ${JSON.stringify(result.statusCodeStats)}, ${result.errors} connection errors, ${result.timeouts} timeouts`);
        }
        const ok = Math.max(1, result['2xx']);
        return { rps: servedPerSecond(result), cpu: (1000 * (processTreeCpuMs(side.server!.pid!) - cpu)) / ok, pg: (1000 * (dbCpu() - db)) / ok };
      };
      // Warm-up at every concurrency (JIT, plans, pools): with one short run, the first counted round was the slowest.
      for (const c of CONNECTIONS) for (const side of sides) await burst(side, c, 2);
      const runs = { this: new Map<number, Run[]>(), other: new Map<number, Run[]>() };
      for (let round = 0; round < rounds; round++) {
        for (const [i, c] of CONNECTIONS.entries()) {
          const order = (round + i) % 2 === 0 ? sides : [...sides].reverse();
          for (const side of order) runs[side.name].set(c, [...(runs[side.name].get(c) ?? []), await burst(side, c, seconds)]);
          const [mine, theirs] = [runs.this.get(c)!.at(-1)!, runs.other.get(c)!.at(-1)!];
          console.log(`round ${round + 1}, c = ${c}: this ${mine.rps.toFixed(0)}/s (${mine.cpu.toFixed(0)} µs CPU a request), the other ${theirs.rps.toFixed(0)}/s (${theirs.cpu.toFixed(0)} µs): ${(mine.rps / theirs.rps).toFixed(3)}`);
        }
      }
      console.log('\n| connections | requests/s, the other → this (medians) | this ÷ the other, run by run: median (min-max) | server CPU per request | PostgreSQL CPU per request |');
      console.log('|---|---|---|---|---|');
      for (const c of CONNECTIONS) {
        const [mine, theirs] = [runs.this.get(c)!, runs.other.get(c)!];
        const ratios = mine.map((r, i) => r.rps / theirs[i]!.rps);
        const m = (xs: number[], digits = 0) => median(xs).toFixed(digits);
        console.log(
          `| ${c} | ${m(theirs.map((r) => r.rps))} → ${m(mine.map((r) => r.rps))} | ${m(ratios, 3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}) | ` +
            `${m(theirs.map((r) => r.cpu))} → ${m(mine.map((r) => r.cpu))} µs | ${m(theirs.map((r) => r.pg))} → ${m(mine.map((r) => r.pg))} µs |`,
        );
      }
    } finally {
      // Each exit awaited from before its kill (one that already ended, by a code or a signal, is not), 10 s at most.
      const exits = sides.map((side) =>
        !side.server || side.server.exitCode !== null || side.server.signalCode !== null ? null : new Promise((r) => side.server!.once('exit', r)),
      );
      for (const side of sides) {
        side.server?.kill();
        await side.db?.end().catch(() => {});
      }
      await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
  }),
);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
