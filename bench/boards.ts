/**
 * Board fetch, card fetch and card move throughput against PostgreSQL, next to a floor (bare
 * Fastify + pg, hand-written SQL: bench/floor-server.ts) measured in the same run.
 * Seeds a 200-card board (10 lists × 20 cards, 5 members, 8 labels and the card parts of seedParts)
 * and a 1,000-card board in a fresh
 * database, starts both servers as child processes and drives them with autocannon over loopback.
 * Usage: npx tsx bench/boards.ts [seconds per run]   (BENCH_DATABASE_URL, default the local server;
 * BENCH_ONLY=moves runs the moves alone; BENCH_FROM_SOURCE=1 runs the app from src/ through tsx (by default
 * it runs as `npm start` runs it: its bundle); BENCH_CPU_PROF=<dir> profiles the app (bench/cpu-profile.ts reads
 * a profile of a run from source); BENCH_SERVER_LOG=<dir> keeps
 * each server's log there, server-<port>.log, to tell which guard answered a non-2xx)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { untilUp } from './until-up.js';
import { servedPerSecond } from './served.js';
import pg from 'pg';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { freePort } from '../test/net.js';
import { countQueries as countStatements } from '../test/query-count.js';
import { withBenchDatabase } from './bench-database.js';
import { randomMoveOn, seedBoards } from './board-seed.js';
import { postmasterOf, processTreeCpuMs } from './process-cpu.js';
import { BOARD_SQL as FLOOR_BOARD_SQL } from './floor-sql.js';
import { SNAPSHOT_SQL } from '../src/boards/boards/board-snapshot.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const seconds = Number(process.argv[2] ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');


await withBenchDatabase('board', async (url) => {
const children: ChildProcess[] = [];

try {
  const db = openPostgres({ url, poolSize: 4 });
  await migrate(db);
  const { userId, small, big, smallLists, smallCards } = await seedBoards(db.prisma);
  const { token } = await createApiKey({ db: db.prisma, userId, name: 'bench', permission: 'write', expiresAt: null });
  /** The figures of the statements themselves (queries per request, PostgreSQL's own time), which a busy machine does not blur. */
  const statementFigures = () => {
    console.log(`\nqueries per board fetch: ${queryCounts.map((q) => `${q.cards} cards → ${q.queries}`).join(', ')}; per card move to another list: ${moveQueries}; per card edit (PATCH): ${editQueries}`);
    for (const e of execution) console.log(`PostgreSQL execution time (EXPLAIN ANALYZE, median of 20), ${e.name}: ours ${e.ours.toFixed(1)} ms, the floor's ${e.floor.toFixed(1)} ms`);
  };
  const execution = await executionTimes(url, [
    ['board fetch, 200 cards', SNAPSHOT_SQL, FLOOR_BOARD_SQL, small, userId],
    ['board fetch, 1,000 cards', SNAPSHOT_SQL, FLOOR_BOARD_SQL, big, userId],
  ]);
  const { fetches: queryCounts, move: moveQueries, edit: editQueries } = await countQueries(url, token, [small, big], { cardId: smallCards[0]!, listId: smallLists[1]! });

  const appPort = await freePort();
  const floorPort = await freePort();
  // BENCH_CPU_PROF=<dir>: the app writes a CPU profile there when it stops (bench/cpu-profile.ts reads one of a run from source).
  const appEnv = { DATABASE_URL: url, PORT: String(appPort), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' };
  // The app as `npm start` runs it (scripts/start.mjs: the server's bundle, no TypeScript loader);
  // BENCH_FROM_SOURCE=1 runs src/server.ts through tsx instead (what trees before the bundle started).
  const fromSource = process.env.BENCH_FROM_SOURCE === '1';
  const appArgs = fromSource ? ['--import', 'tsx', 'src/server.ts'] : ['scripts/start.mjs'];
  // Two apps start at once below: were the web build or the bundle older than the sources, each would
  // rebuild it into the same folder while the other loads from it. So they are brought up to date here, once.
  if (!fromSource) await (await import('../scripts/server-bundle.mjs')).buildWhatIsStale();
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const startApp = (env: Record<string, string>) =>
    spawn(process.execPath, [...profile, ...appArgs], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', serverLog(env.PORT), 'inherit'] });
  const cachedApp = startApp(appEnv);
  // The same app with its board cache off: what a board fetch costs when the board just changed.
  const uncachedPort = await freePort();
  const uncachedApp = startApp({ ...appEnv, PORT: String(uncachedPort), BOARD_CACHE_MB: '0' });
  children.push(cachedApp, uncachedApp);
  if (process.env.BENCH_SERVER_LOG) console.error(`server logs: the app with its cache server-${appPort}.log, without it server-${uncachedPort}.log`);
  if (process.env.BENCH_CPU_PROF) console.log(`CPU profiles: the app with its cache is pid ${cachedApp.pid} (card fetches, moves), without it pid ${uncachedApp.pid} (board fetches)`);
  const floorServer = start(['bench/floor-server.ts'], { DATABASE_URL: url, PORT: String(floorPort) });
  children.push(floorServer);
  await Promise.all([
    untilUp(`http://127.0.0.1:${appPort}/healthz`),
    untilUp(`http://127.0.0.1:${uncachedPort}/healthz`),
    untilUp(`http://127.0.0.1:${floorPort}/floor/boards/${small}`),
  ]);

  const app = `http://127.0.0.1:${appPort}`;
  const uncached = `http://127.0.0.1:${uncachedPort}`;
  const floor = `http://127.0.0.1:${floorPort}`;
  const auth = { authorization: `Bearer ${token}` };
  const rows: string[] = [];
  const served = new Map<string, number>();
  const row = (name: string, c: number, r: Result, floorResult?: Result) => {
    served.set(name, (served.get(name) ?? 0) + r.total);
    rows.push(
      `| ${name} | ${c} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ` +
        (floorResult ? `${floorResult.rps.toFixed(0)} / ${floorResult.p50} / ${floorResult.p99} | ${((100 * r.rps) / floorResult.rps).toFixed(0)} % | ${(r.p99 / Math.max(1, floorResult.p99)).toFixed(2)}× |` : ' | | |'),
    );
  };

  const randomMove = (prefix: string) => randomMoveOn(prefix, { lists: smallLists, cards: smallCards });

  // BENCH_ONLY=moves: the moves alone (a CPU profile of the app then holds nothing else).
  const onlyMoves = process.env.BENCH_ONLY === 'moves';
  // BENCH_ONLY=fetch: the 1,000-card uncached fetch at c = 32 alone, three times, the floor first each time (its p99 target).
  if (process.env.BENCH_ONLY === 'fetch') {
    for (let i = 0; i < 3; i++) {
      const theirs = await run({ url: `${floor}/floor/boards/${big}`, connections: 32 });
      row('GET /api/boards/{id} (1,000 cards), uncached', 32, await run({ url: `${uncached}/api/boards/${big}`, connections: 32, headers: auth }), theirs);
    }
  }
  for (const [board, size] of onlyMoves || process.env.BENCH_ONLY === 'fetch' ? [] : ([[small, '200 cards'], [big, '1,000 cards']] as const)) {
    for (const c of [1, 8, 32]) {
      const theirs = await run({ url: `${floor}/floor/boards/${board}`, connections: c });
      row(`GET /api/boards/{id} (${size}), uncached`, c, await run({ url: `${uncached}/api/boards/${board}`, connections: c, headers: auth }), theirs);
      row(`GET /api/boards/{id} (${size}), from the cache`, c, await run({ url: `${app}/api/boards/${board}`, connections: c, headers: auth }), theirs);
    }
  }
  if (process.env.BENCH_ONLY === 'fetch') {
    console.log('| request | connections | 2xx/s | p50 ms | p99 ms | non-2xx | floor 2xx/s / p50 / p99 | % of floor | p99 vs floor |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    statementFigures();
    await db.close();
    return;
  }
  for (const c of onlyMoves ? [] : [1, 8, 32]) {
    row('GET /api/cards/{id}', c, await run({ url: `${app}/api/cards/${smallCards[0]}`, connections: c, headers: auth }));
  }
  // Warm-up, not measured: the first moves compile the move path (the JIT, zod's and Prisma's own
  // compilation), which the measured runs would otherwise pay; the floor gets the same.
  for (const [base, prefix, headers] of [[app, '/api', auth], [floor, '/floor', {}]] as const) {
    await autocannon({ url: base, duration: 2, connections: 8, headers: { ...headers, 'content-type': 'application/json' }, requests: [{ method: 'POST', setupRequest: randomMove(prefix) }] });
  }
  // Moves still in flight when the warm-up ended land before the counts below are taken.
  await new Promise((r) => setTimeout(r, 500));
  const activitiesBefore = await db.prisma.activity.count({ where: { type: 'card.moved' } });
  // Every move that changed something bumps its card's version once: the server's own count, which
  // includes the moves still in flight when a timed run ended (served, but not counted by autocannon).
  const versions = async () =>
    Number((await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT coalesce(sum(version), 0)::bigint AS n FROM "Card" WHERE "boardId" = ${small}`)[0]!.n);
  let movesMade = 0;
  let movesOk = 0;
  const cpuPerMove: { ours: number[]; floor: number[]; oursDb: number[]; floorDb: number[] } = { ours: [], floor: [], oursDb: [], floorDb: [] };
  // PostgreSQL's own CPU per move, when it runs on this machine: its postmaster and every backend.
  const postmaster = await postmasterPid(db);
  const dbCpu = () => (postmaster ? processTreeCpuMs(postmaster, true) : 0);
  // Ours and the floor's in turn at each concurrency, not all of ours first: every move leaves dead
  // row versions behind until they are pruned or vacuumed, so whichever ran later ran on a table
  // with more of them. And each run starts from a vacuumed table, as autovacuum would keep it
  // (this machine's PostgreSQL runs with autovacuum off).
  const vacuum = () => db.prisma.$executeRawUnsafe('VACUUM "Card", "List"');
  for (const c of [1, 8, 32]) {
    await vacuum();
    const versionsBefore = await versions();
    let cpuBefore = processTreeCpuMs(cachedApp.pid!);
    let dbBefore = dbCpu();
    const ours = await run({
      url: app,
      connections: c,
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [{ method: 'POST', setupRequest: randomMove('/api') }],
    });
    movesOk += ours.ok;
    cpuPerMove.ours.push((1000 * (processTreeCpuMs(cachedApp.pid!) - cpuBefore)) / Math.max(1, ours.total));
    cpuPerMove.oursDb.push((1000 * (dbCpu() - dbBefore)) / Math.max(1, ours.total));
    // Our moves still in flight when the run ended land before the count (the floor's bump versions too).
    await new Promise((r) => setTimeout(r, 500));
    movesMade += (await versions()) - versionsBefore;
    await vacuum();
    cpuBefore = processTreeCpuMs(floorServer.pid!);
    dbBefore = dbCpu();
    const theirs = await run({
      url: floor,
      connections: c,
      headers: { 'content-type': 'application/json' },
      requests: [{ method: 'POST', setupRequest: randomMove('/floor') }],
    });
    cpuPerMove.floor.push((1000 * (processTreeCpuMs(floorServer.pid!) - cpuBefore)) / Math.max(1, theirs.total));
    cpuPerMove.floorDb.push((1000 * (dbCpu() - dbBefore)) / Math.max(1, theirs.total));
    row('POST /api/cards/{id}/move', c, ours, theirs);
    await new Promise((r) => setTimeout(r, 500));
  }
  // Every move keeps positions 0..n-1, the floor's too; only ours write activities.
  const invariant = await checkInvariant(db.prisma, small, smallCards.length);
  const activitiesAfter = await db.prisma.activity.count({ where: { type: 'card.moved' } });
  await db.close();

  console.log(`\nPostgreSQL, ${seconds} s per run, autocannon over loopback; floor = bare Fastify + pg, same run.\n`);
  console.log('| request | connections | 2xx/s | p50 ms | p99 ms | non-2xx | floor 2xx/s / p50 / p99 | % of floor | p99 vs floor |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  statementFigures();
  console.log(`after our moves and the floor's: positions 0..n-1 in every list: ${invariant.ok}; cards ${invariant.cards}/${smallCards.length}; ` +
    `card.moved activities written: ${activitiesAfter - activitiesBefore} for ${movesMade} moves that changed a card (its version grew; ` +
    `moves to where the card already is write none); autocannon counted ${movesOk} 2xx answers, leaving out those in flight when each timed run ended`);
  // Less noisy than req/s on a shared machine: the server process's own CPU (user + system, from /proc) per move served.
  const µs = (values: number[]) => values.map((v) => v.toFixed(0)).join(' / ');
  console.log(`server CPU per move (c = 1 / 8 / 32): ours ${µs(cpuPerMove.ours)} µs, the floor's ${µs(cpuPerMove.floor)} µs`);
  if (postmaster) console.log(`PostgreSQL's CPU per move (c = 1 / 8 / 32): ours ${µs(cpuPerMove.oursDb)} µs, the floor's ${µs(cpuPerMove.floorDb)} µs`);
  console.log(`requests the app served: ${[...served].map(([name, n]) => `${name} ${n}`).join(', ')}`);
} finally {
  // Waits for the servers to stop (a CPU profile is written as the app exits), 10 s at most.
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(null);
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(resolve, 10_000).unref();
  })));
}
});

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  ok: number;
  total: number;
}

async function run(options: autocannon.Options): Promise<Result> {
  const result = await autocannon({ duration: seconds, ...options });
  // Which answers were not 2xx: about one move in 5,000 is, whose status was never recorded (a 409 after three lost races is suspected).
  if (result.non2xx) console.error(`non-2xx from ${options.url}: ${JSON.stringify(result.statusCodeStats)}`);
  return {
    rps: servedPerSecond(result),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    ok: result['2xx'],
    total: result.requests.total,
  };
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(tsx, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', serverLog(env.PORT), 'inherit'] });
}

/** Where a server's stdout (its pino log) goes: a file under BENCH_SERVER_LOG, or nowhere. */
function serverLog(port: string | undefined): 'ignore' | number {
  const dir = process.env.BENCH_SERVER_LOG;
  return dir ? openSync(path.join(path.resolve(dir), `server-${port}.log`), 'a') : 'ignore';
}



/** SQL statements one board fetch (cache off; a hit sends none), one card move and one card edit send, counted at the pg driver (the rate limiter's aside; BEGIN and COMMIT count). */
async function countQueries(dbUrl: string, token: string, boards: number[], move: { cardId: number; listId: number }) {
  const db = openPostgres({ url: dbUrl, poolSize: 2 });
  const app = await buildApp({ events: new EventBus(), config: configFrom({ DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', MIGRATE_ON_START: 'false', BOARD_CACHE_MB: '0' }), db });
  // The notifier reads each committed change in the background, in its own transaction (src/notifications):
  // its statements are not the request's, but they land inside the counting window. Stopped here, so
  // what is counted is what a fetch, a move and an edit cost themselves.
  await app.ready();
  await app.notifications.notifier.stop();
  // Counted at the driver, the background work left out, as the tests count (test/query-count.ts).
  // So is the key's lookup: read once a second while the key is in use (in the background after half
  // of it), it fell into one counted request's window or another on a slow run.
  const counter = await countStatements(db, /^(?![\s\S]*FROM "ApiKey" k )/);
  let since = 0;
  const reset = () => void (since = counter.count);
  const counted = () => counter.count - since;
  const out: { cards: number; queries: number }[] = [];
  try {
    for (const id of boards) {
      // Warms the key cache and the rate limiter: a key's first requests in a process are counted
      // in the shared store at once, later ones in memory (flushed in the background).
      for (let i = 0; i < 2; i++) await app.inject({ method: 'GET', url: `/api/boards/${id}`, headers: { authorization: `Bearer ${token}` } });
      reset();
      const res = await app.inject({ method: 'GET', url: `/api/boards/${id}`, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`the counted board fetch answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      const cards = (res.json().lists as { cards: unknown[] }[]).reduce((n, l) => n + l.cards.length, 0);
      out.push({ cards, queries: counted() });
    }
    // A first move to another list in a process makes its ticket follow-up read which lists solve
    // tickets (kept for a minute), after the answer, sometimes inside the window: so one move first,
    // its follow-up let finish, then the counted one, back to the card's list.
    const from = (await app.inject({ method: 'GET', url: `/api/cards/${move.cardId}`, headers: { authorization: `Bearer ${token}` } })).json().listId as number;
    if (from === move.listId) throw new Error(`the counted move must change lists: card ${move.cardId} is already in list ${from}`);
    await app.inject({ method: 'POST', url: `/api/cards/${move.cardId}/move`, headers: { authorization: `Bearer ${token}` }, payload: { listId: move.listId, position: 0 } });
    await new Promise((r) => setTimeout(r, 500));
    reset();
    const moved = await app.inject({ method: 'POST', url: `/api/cards/${move.cardId}/move`, headers: { authorization: `Bearer ${token}` }, payload: { listId: from, position: 0 } });
    if (moved.statusCode !== 200) throw new Error(`the counted move answered ${moved.statusCode}: ${moved.body}`);
    const moveCount = counted();
    reset();
    const edited = await app.inject({ method: 'PATCH', url: `/api/cards/${move.cardId}`, headers: { authorization: `Bearer ${token}` }, payload: { title: 'Counted edit' } });
    if (edited.statusCode !== 200) throw new Error(`the counted edit answered ${edited.statusCode}: ${edited.body}`);
    return { fetches: out, move: moveCount, edit: counted() };
  } finally {
    counter.stop();
    await app.close();
    await db.close();
  }
}

/** The statements' own execution time in PostgreSQL, ours and the floor's, without any client. */
async function executionTimes(url: string, cases: [string, string, string, number, number][]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const median = async (sql: string, params: unknown[]) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      times.push((rows[0]['QUERY PLAN'] as { 'Execution Time': number }[])[0]!['Execution Time']);
    }
    return times.sort((a, b) => a - b)[10]!;
  };
  try {
    const out = [];
    for (const [name, ours, floor, boardId, userId] of cases) out.push({ name, ours: await median(ours, [boardId, userId, null]), floor: await median(floor, [boardId]) });
    return out;
  } finally {
    await client.end();
  }
}

async function checkInvariant(prisma: ReturnType<typeof openPostgres>['prisma'], boardId: number, expected: number) {
  const cards = await prisma.card.findMany({ where: { boardId, archived: false }, orderBy: [{ listId: 'asc' }, { position: 'asc' }] });
  const byList = new Map<number, number[]>();
  for (const c of cards) byList.set(c.listId, [...(byList.get(c.listId) ?? []), c.position]);
  const ok = [...byList.values()].every((ps) => ps.every((p, i) => p === i));
  return { ok, cards: cards.length === expected ? expected : `${cards.length} (expected ${expected})` };
}

/** The PostgreSQL postmaster's pid when the server runs on this machine, else null. */
async function postmasterPid(db: ReturnType<typeof openPostgres>): Promise<number | null> {
  try {
    const [row] = await db.prisma.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    return postmasterOf(row!.pid);
  } catch {
    return null;
  }
}
