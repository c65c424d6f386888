/**
 * `npm run chaos -- --part freeze`: PostgreSQL stops answering without going down. The server runs
 * on a database of its own on an existing PostgreSQL server (default the machine's, at
 * 127.0.0.1:5432), and the backends serving that database -- only those: never the postmaster,
 * never another database's backends, so other users of the server go on -- are SIGSTOPped for
 * `--freeze` seconds under load (4 clients looping over board fetches, card creations and moves
 * with pauses, 2 more without), new backends of the database stopped as they appear, then
 * SIGCONTed. Pass: every request in flight during the freeze ends in 2xx or 503 with Retry-After,
 * the 503s within 2.5 s at the 99th percentile on every path, every acknowledged write is there
 * afterwards, and the server serves again by itself. Needs root (signals to the postgres user's
 * processes) and a server on this machine.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { freePort } from '../../test/net.js';
import { type Check, checkBoard } from './checks.js';
import { onCleanup } from './cleanup.js';
import { AMBIGUOUS, type CardRecord, Ledger, type Outcome } from './load.js';
import { tempDir } from './scenario.js';
import { admin, ServerProcess, sleep } from './server.js';

export interface FreezeOptions {
  /** A database on this server is created for the run and dropped after it. */
  serverUrl: string;
  freezeMs: number;
  /** Load before the freeze, and after it (recovery). */
  loadMs: number;
  startTimeoutMs: number;
  requestTimeoutMs: number;
}

type Path = 'GET /api/boards/{id}' | 'POST /api/lists/{id}/cards' | 'POST /api/cards/{id}/move';
const PATHS: Path[] = ['GET /api/boards/{id}', 'POST /api/lists/{id}/cards', 'POST /api/cards/{id}/move'];

interface Sample {
  path: Path;
  client: number;
  start: number;
  end: number;
  status: number;
  outcome: Outcome;
  retryAfter: string | null;
}

export interface PathFigures {
  path: Path;
  during: number;
  ok: number;
  s503: number;
  s503WithRetryAfter: number;
  other: number;
  p50: number;
  p99: number;
  max: number;
}

export interface FreezeResult {
  database: string;
  options: FreezeOptions;
  frozenPids: number;
  freezeMs: number;
  paths: PathFigures[];
  /** 503s outside the freeze and its recovery second (there should be none). */
  shedOutside: number;
  /** From SIGCONT to the first acknowledged write sent after it, and to the last failure. */
  firstAckMs: number | null;
  lastFailureMs: number | null;
  requests: number;
  checks: Check[];
  serverErrors: number;
}

const P99_LIMIT_MS = 2500;
const EMAIL = 'freeze@example.com';

/** The pids of `database`'s backends, by pg_stat_activity, each confirmed by its process title. */
async function backendsOf(control: pg.Client, database: string): Promise<number[]> {
  const { rows } = await control.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  return rows.map((r) => r.pid).filter((pid) => {
    try {
      // "postgres: <user> <database> <host>(<port>) <state>": never a process of another database.
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ').includes(database);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Runs the freeze and reports. */
export async function runFreeze(options: FreezeOptions, log: (line: string) => void): Promise<FreezeResult> {
  const database = `tb_chaos_freeze_${Date.now()}`;
  const control = new pg.Client({ connectionString: options.serverUrl });
  await control.connect();
  await control.query(`CREATE DATABASE "${database}"`);
  const serverUrl = new URL(options.serverUrl);
  const url = Object.assign(new URL(options.serverUrl), { pathname: `/${database}` }).toString();
  // Synchronous, so that it runs on Ctrl-C too: thaw whatever is stopped, then drop the database.
  const stopped = new Set<number>();
  const thawAll = () => {
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
    stopped.clear();
  };
  const dropDatabase = onCleanup(`drop database ${database}`, () => {
    thawAll();
    spawnSync('psql', ['-h', serverUrl.hostname, '-p', serverUrl.port || '5432', '-U', decodeURIComponent(serverUrl.username) || 'postgres', '-d', serverUrl.pathname.slice(1) || 'postgres', '-c', `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`], { stdio: 'ignore', timeout: 30_000 });
  });
  const forgetThaw = onCleanup('SIGCONT the frozen backends', thawAll);

  const data = tempDir('tb-chaos-freeze-');
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, DATA_DIR: data.dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000000' };
  const server = new ServerProcess(env, await freePort());
  try {
    log(`freeze: database ${database}; starting the server`);
    await server.start(options.startTimeoutMs);
    await admin(env, 'user', 'create', '--email', EMAIL, '--password', 'freeze-chaos-password', '--name', 'Freeze', '--admin');
    const key = String((await admin(env, 'key', 'create', '--email', EMAIL, '--name', 'freeze', '--permission', 'write')).token);
    const post = async (route: string, body: unknown) => {
      const res = await fetch(server.base + route, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    };
    const boardId = await post('/api/boards', { name: 'Freeze' });
    const listIds: number[] = [];
    for (const name of ['To do', 'Doing', 'Done']) listIds.push(await post(`/api/boards/${boardId}/lists`, { name }));

    const ledger = new Ledger();
    const samples: Sample[] = [];
    let running = true;
    const request = async (client: number, path: Path, method: string, route: string, body?: unknown) => {
      const start = Date.now();
      let status = 0;
      let outcome: Outcome;
      let json: unknown = null;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(server.base + route, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(options.requestTimeoutMs),
        });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        const text = await res.text();
        outcome = status < 300 ? 'ack' : status === 503 ? 's503' : status === 429 ? 's429' : status >= 500 ? 's5xx' : 's4xx';
        if (outcome === 'ack') json = JSON.parse(text) as unknown;
      } catch (error) {
        outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'reset';
      }
      samples.push({ path, client, start, end: Date.now(), status, outcome, retryAfter });
      return { outcome, json };
    };
    const runClient = async (client: number, pauses: boolean) => {
      const own: CardRecord[] = [];
      let seq = 0;
      while (running) {
        const r = Math.random();
        if (own.length < 3 || r < 0.33) {
          const listId = listIds[Math.floor(Math.random() * listIds.length)]!;
          const title = `freeze-c${client}-${seq++}`;
          const { outcome, json } = await request(client, 'POST /api/lists/{id}/cards', 'POST', `/api/lists/${listId}/cards`, { title });
          if (outcome === 'ack') {
            const record: CardRecord = { id: (json as { id: number }).id, title, createdIn: listId, moves: [] };
            ledger.cards.set(record.id, record);
            own.push(record);
          } else if (AMBIGUOUS.has(outcome)) ledger.ambiguousCardTitles.add(title);
        } else if (r < 0.66) {
          const card = own[Math.floor(Math.random() * own.length)]!;
          const listId = listIds[Math.floor(Math.random() * listIds.length)]!;
          const { outcome } = await request(client, 'POST /api/cards/{id}/move', 'POST', `/api/cards/${card.id}/move`, Math.random() < 0.5 ? { listId, position: 0 } : { listId });
          card.moves.push({ target: listId, outcome, at: Date.now() });
        } else {
          await request(client, 'GET /api/boards/{id}', 'GET', `/api/boards/${boardId}`);
        }
        if (pauses) await sleep(50 + Math.random() * 200);
      }
    };
    const clients = [0, 1, 2, 3].map((i) => runClient(i, true)).concat([4, 5].map((i) => runClient(i, false)));

    log(`freeze: load for ${options.loadMs / 1000} s`);
    await sleep(options.loadMs);
    log(`freeze: SIGSTOP the backends of ${database} for ${options.freezeMs / 1000} s`);
    const freezeStart = Date.now();
    const frozen = new Set<number>();
    while (Date.now() - freezeStart < options.freezeMs) {
      for (const pid of await backendsOf(control, database)) {
        if (frozen.has(pid)) continue;
        try {
          process.kill(pid, 'SIGSTOP');
          stopped.add(pid);
          frozen.add(pid);
        } catch {
          // gone
        }
      }
      await sleep(20);
    }
    const freezeEnd = Date.now();
    thawAll();
    log(`freeze: SIGCONT ${frozen.size} backends; load for ${options.loadMs / 1000} s more`);
    await sleep(options.loadMs);
    running = false;
    await Promise.all(clients);

    const checks = await checkBoard({ base: server.base, key, workspaceToken: '', boardId, listIds, assignees: [] }, ledger);
    const during = samples.filter((s) => s.start < freezeEnd && s.end > freezeStart);
    const paths = PATHS.map((path): PathFigures => {
      const mine = during.filter((s) => s.path === path);
      const shed = mine.filter((s) => s.outcome === 's503');
      const ms = shed.map((s) => s.end - s.start).sort((a, b) => a - b);
      const at = (q: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]! : 0);
      return {
        path,
        during: mine.length,
        ok: mine.filter((s) => s.outcome === 'ack').length,
        s503: shed.length,
        s503WithRetryAfter: shed.filter((s) => s.retryAfter && /^\d+$/.test(s.retryAfter)).length,
        other: mine.filter((s) => s.outcome !== 'ack' && s.outcome !== 's503').length,
        p50: at(0.5),
        p99: at(0.99),
        max: ms.at(-1) ?? 0,
      };
    });
    const after = samples.filter((s) => s.start >= freezeEnd);
    const firstAck = after.filter((s) => s.outcome === 'ack' && s.path !== 'GET /api/boards/{id}').sort((a, b) => a.end - b.end)[0];
    const failuresAfter = after.filter((s) => s.outcome !== 'ack').sort((a, b) => a.end - b.end);
    const shedOutside = samples.filter((s) => s.outcome === 's503' && (s.end <= freezeStart || s.start >= freezeEnd + 1000)).length;
    checks.push(
      ...paths.map((p) => ({
        name: `${p.path}: every request during the freeze 2xx or 503 with Retry-After, the 503s within ${P99_LIMIT_MS} ms at p99`,
        ok: p.other === 0 && p.s503WithRetryAfter === p.s503 && p.p99 <= P99_LIMIT_MS && p.during > 0,
        detail: `${p.during} requests: ${p.ok} 2xx, ${p.s503} × 503 (${p.s503WithRetryAfter} with Retry-After), ${p.other} other; 503 after p50 ${p.p50} / p99 ${p.p99} / max ${p.max} ms`,
      })),
      { name: 'serving again after the freeze', ok: firstAck !== undefined, detail: firstAck ? `first acknowledged write ${firstAck.end - freezeEnd} ms after SIGCONT` : 'no write acknowledged after SIGCONT' },
      { name: 'no 503 outside the freeze (and its first second after)', ok: shedOutside === 0, detail: `${shedOutside}` },
    );
    return {
      database,
      options,
      frozenPids: frozen.size,
      freezeMs: freezeEnd - freezeStart,
      paths,
      shedOutside,
      firstAckMs: firstAck ? firstAck.end - freezeEnd : null,
      lastFailureMs: failuresAfter.length ? failuresAfter.at(-1)!.end - freezeEnd : null,
      requests: samples.length,
      checks,
      serverErrors: server.errors.length,
    };
  } finally {
    forgetThaw();
    await server.stop();
    data.remove();
    await control.end();
    dropDatabase();
  }
}

/** The run as Markdown. */
export function freezeReport(r: FreezeResult): string {
  const lines = [
    `## Freeze: the backends of one database SIGSTOPped for ${(r.freezeMs / 1000).toFixed(1)} s under load`,
    '',
    `Database \`${r.database}\` on ${new URL(r.options.serverUrl).host}; ${r.frozenPids} backends stopped (the server's pool, its liveness probe and any opened during the freeze), the postmaster and other databases untouched. ` +
      `6 clients (4 with 50-250 ms pauses, 2 without), ${r.options.loadMs / 1000} s of load before and after; ${r.requests} requests in all.`,
    '',
    '| path | requests during the freeze | 2xx | 503 (with Retry-After) | other | 503 after p50 / p99 / max ms |',
    '|---|---|---|---|---|---|',
    ...r.paths.map((p) => `| ${p.path} | ${p.during} | ${p.ok} | ${p.s503} (${p.s503WithRetryAfter}) | ${p.other} | ${p.p50} / ${p.p99} / ${p.max} |`),
    '',
    `Recovery: first acknowledged write ${r.firstAckMs ?? '—'} ms after SIGCONT; ${r.lastFailureMs === null ? 'no request sent after it failed' : `the last failed request sent after it ended ${r.lastFailureMs} ms after it`}. ` +
      `503s outside the freeze: ${r.shedOutside}. Server error-level log lines: ${r.serverErrors}.`,
    '',
    ...r.checks.map((c) => `- ${c.ok ? 'pass' : '**FAIL**'}: ${c.name} — ${c.detail}`),
  ];
  return lines.join('\n');
}
