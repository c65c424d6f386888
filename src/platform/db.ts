import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { type Prisma, PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock, type DataDirLock } from './database/data-dir-lock.js';
import { DatabaseLiveness, DatabaseNotAnsweringError, livenessOptions, watchLiveness } from './database/db-liveness.js';
import { BASELINE_DIR, readBaseline } from './database/embedded-baseline.js';
import { upgradeEmbeddedData } from './database/upgrade-embedded.js';

export type { PrismaClient } from '../generated/prisma/client.js';

/** A transaction's client: what a change's steps run on inside `db.$transaction`. */
export type Tx = Prisma.TransactionClient;

/** What domain functions take: the client, or a transaction of it (`tx ?? db`). */
export type DbClient = PrismaClient | Tx;

/** One SQL connection, for work Prisma does not do: migrations, advisory locks, LISTEN. */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(text: string): Promise<void>;
}

export interface Database {
  kind: 'embedded' | 'postgres';
  prisma: PrismaClient;
  /** Borrows one connection for the duration of fn. */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** The PGlite instance when embedded (tests dump it; the admin socket shares it). */
  pglite?: PGlite;
  /** The pg pool when on PostgreSQL. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  /** Longest wait for a new connection to open. */
  connectTimeoutMs?: number;
  /** Longest a query may take (server-side statement_timeout; the client gives up a little later). */
  queryTimeoutMs?: number;
  /** Longest wait for a free connection of a full pool while the database keeps answering. */
  queueTimeoutMs?: number;
  /** How long the liveness probe waits for an answer before the database counts as not answering. */
  probeTimeoutMs?: number;
}

/** For work that may legitimately wait long (migrations behind another process's advisory lock). */
const SESSION_QUERY_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A pg client that drops its connection when a query times out on the client side (pg's
 * query_timeout): the server stopped answering, and the stuck query would otherwise hold the
 * connection — and every later query on it — for as long as the freeze lasts. Ending a client
 * with an active query destroys its socket, and the pool never hands it out again. Every query
 * is reported to the pool's liveness (db-liveness.ts), which ends it at once when the database
 * is found not answering, and refuses new ones until it answers again.
 */
class GuardedClient extends pg.Client {
  liveness: DatabaseLiveness | undefined;
}
const plainQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
const isReadTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';
const isSubmittable = (value: unknown) => !!value && typeof value === 'object' && typeof (value as { submit?: unknown }).submit === 'function';

GuardedClient.prototype.query = function guardedQuery(this: GuardedClient, ...args: unknown[]) {
  const drop = () => void this.end().catch(() => {});
  const liveness = this.liveness;
  const last = args.length - 1;
  const callback = typeof args[last] === 'function' ? (args[last] as (e: unknown, r: unknown) => void) : undefined;
  // A cursor or a stream keeps its own ways; only plain queries are followed.
  const followed = liveness && !isSubmittable(args[0]);
  if (followed && liveness.down) {
    // Not sent: the server answers nothing. Dropped, so that a transaction begun on it is not reused.
    drop();
    const error = new DatabaseNotAnsweringError();
    if (callback) return void process.nextTick(callback, error, undefined);
    return Promise.reject(error);
  }
  const work = {};
  if (followed) liveness.begin(work, performance.now(), drop);
  const settle = (error: unknown) => {
    if (followed) liveness.settle(work, performance.now(), !error || error instanceof pg.DatabaseError);
    if (isReadTimeout(error)) drop();
  };
  if (callback) {
    args[last] = (error: unknown, result: unknown) => {
      settle(error);
      callback(error, result);
    };
    return plainQuery.apply(this, args);
  }
  const result = plainQuery.apply(this, args) as Promise<unknown> | undefined;
  result?.then?.(() => settle(undefined), settle);
  return result;
} as typeof pg.Client.prototype.query;

const ahead = new AsyncLocalStorage<true>();
/** Calls of aheadOfQueue not yet settled: the storage is switched off when none is left. */
let aheadInFlight = 0;
/** How many statements sent ahead of the queue may overtake one waiting request. */
const MAX_OVERTAKEN = 4;

/**
 * Runs `fn` so that the statements it sends on PostgreSQL take the next free pooled connection
 * before the requests already waiting for one. For the small lookups that decide whether a
 * request may run at all (credentials, rate-limit counts): in line, they queued behind the very
 * requests they admit, so under load a request that needed one waited for the pool twice (at 32
 * concurrent 1,000-card board fetches, about 0.4 s more, and a credential read every second).
 * The embedded database has one connection and no queue of ours: there it changes nothing.
 * Use Prisma's findFirst inside, not findUnique: Prisma sends the findUniques of one tick together
 * from the first caller's context, which would lend this place to other requests' queries (or
 * take it from this one). A waiter is overtaken by at most MAX_OVERTAKEN statements sent ahead,
 * so a flood of them (unknown tokens, each a lookup) cannot starve the requests waiting.
 */
export async function aheadOfQueue<T>(fn: () => PromiseLike<T>): Promise<T> {
  aheadInFlight++;
  try {
    // Awaited inside: a Prisma query is sent only when something awaits it, which must happen here.
    return await ahead.run(true, async () => await fn());
  } finally {
    // On Node 20 an enabled AsyncLocalStorage runs a hook for every promise of the process (~13 %
    // of a card move's CPU when it stayed on); these statements are rare (a credential read every
    // half second, a rate-limit count per window), so it is on only while one is in flight.
    if (--aheadInFlight === 0) ahead.disable();
  }
}

/** A Database on a PostgreSQL server; nothing is connected until the first query. */
export function openPostgres(options: PostgresOptions): Database {
  const queryTimeoutMs = options.queryTimeoutMs ?? 2000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const liveness = new DatabaseLiveness(livenessOptions(options.probeTimeoutMs ?? 750), performance.now());
  // Opening a connection is bounded by connectTimeoutMs (the client's own timer); waiting for a
  // free one of a full pool by queueTimeoutMs (the pool's), as long as the server keeps answering.
  class PoolClient extends GuardedClient {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
      this.liveness = liveness;
    }
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    Client: PoolClient,
    // A busy database queues requests for a connection up to this bound (none is shed while
    // statements keep completing); one that stops answering is found by the liveness probe, and
    // every request waiting on it gets 503 at once (db-liveness.ts). Each query is bounded by
    // statement_timeout on the server (a slow query, cancelled cleanly) and query_timeout on the
    // client (the connection is then dropped).
    connectionTimeoutMillis: options.queueTimeoutMs ?? 10_000,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + 250,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server emits 'error' on the pool; without a listener Node exits.
  pool.on('error', () => {});
  const watch = watchLiveness(liveness, options.url);
  type Checkout = (error: Error | undefined, client: GuardedClient | undefined, done: (release?: unknown) => void) => void;
  const checkout = pool.connect.bind(pool) as (cb: Checkout) => void;
  // pg-pool's waiters, in order; a full pool's connect() appends one synchronously.
  // (A private field: should a later pg-pool lose it, aheadOfQueue only stops taking effect.)
  const queue = (pool as unknown as { _pendingQueue?: unknown })._pendingQueue;
  const waiters: object[] = Array.isArray(queue) ? queue : [];
  const jumped = new WeakSet<object>();
  const overtaken = new WeakMap<object, number>();
  // Behind the waiters that jumped before it (they keep their order) and those overtaken enough
  // already, ahead of every other.
  const jumpQueue = (before: number) => {
    if (!ahead.getStore() || before === 0 || waiters.length !== before + 1) return;
    const waiter = waiters.pop()!;
    let at = 0;
    while (at < waiters.length && (jumped.has(waiters[at]!) || (overtaken.get(waiters[at]!) ?? 0) >= MAX_OVERTAKEN)) at++;
    waiters.splice(at, 0, waiter);
    jumped.add(waiter);
    for (const behind of waiters.slice(at + 1)) {
      if (!jumped.has(behind)) overtaken.set(behind, (overtaken.get(behind) ?? 0) + 1);
    }
  };
  // A checkout is work waiting on the database too: failed at once when it stops answering (a
  // connection the pool hands over later goes straight back), refused while it does not answer.
  const connect = (callback: Checkout) => {
    if (liveness.down) return void process.nextTick(callback, new DatabaseNotAnsweringError(), undefined, () => {});
    const before = waiters.length;
    const work = {};
    let over = false;
    liveness.begin(work, performance.now(), () => {
      over = true;
      callback(new DatabaseNotAnsweringError(), undefined, () => {});
    });
    checkout((error, client, done) => {
      if (over) return void (client && done());
      over = true;
      liveness.settle(work, performance.now(), false);
      callback(error, client, done);
    });
    jumpQueue(before);
  };
  // pool.query checks out through this.connect too, with a callback.
  pool.connect = ((callback?: Checkout) => {
    if (typeof callback === 'function') return connect(callback);
    return new Promise((resolve, reject) => connect((error, client) => (error || !client ? reject(error) : resolve(client as unknown as pg.PoolClient))));
  }) as typeof pool.connect;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: 'postgres',
    prisma,
    pool,
    async withSession(fn) {
      const client = await pool.connect();
      // pg reads a per-query query_timeout; its typings do not list it.
      const run = async (text: string, params: unknown[] | undefined, timeoutMs: number) =>
        (await client.query({ text, values: params, query_timeout: timeoutMs } as pg.QueryConfig)).rows;
      let failed: Error | undefined;
      try {
        await run('SET statement_timeout = 0', undefined, queryTimeoutMs + 250);
        return await fn({
          query: async (text, params) => (await run(text, params, SESSION_QUERY_TIMEOUT_MS)) as never,
          exec: async (text) => {
            await run(text, undefined, SESSION_QUERY_TIMEOUT_MS);
          },
        });
      } catch (error) {
        failed = error as Error;
        throw error;
      } finally {
        // The session's settings go back to the pool's defaults; a broken session is not reused.
        if (!failed) await client.query('RESET statement_timeout').catch((error: Error) => (failed = error));
        client.release(failed);
      }
    },
    async close() {
      await watch.stop();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** A Database on an already open PGlite instance (tests hand in one loaded from a template). */
export function openPGliteInstance(pglite: PGlite, onClose?: () => Promise<void>): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'embedded',
    prisma,
    pglite,
    withSession: (fn) =>
      fn({
        query: async (text, params) => (await pglite.query(text, params as unknown[])).rows as never,
        exec: async (text) => {
          await pglite.exec(text);
        },
      }),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      await onClose?.();
    },
  };
}

/**
 * The embedded database persisted under dataDir. Only one process may hold a data directory:
 * a second opener gets DataDirBusyError (the admin CLI then talks to the server instead).
 */
export async function openEmbedded(
  dataDir: string,
  log: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
  /** Where the baseline a new data directory starts from is (embedded-baseline.ts); null: none. */
  baselineDir: string | null = BASELINE_DIR,
): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    // A directory written by an older PGlite (another PostgreSQL major) is carried over first.
    await upgradeEmbeddedData(pgdata, log);
    // A new one starts as a copy of the baseline, migrated already (1-2 s rather than 9-12 s on a busy box).
    let loadDataDir: Blob | undefined;
    if (baselineDir && !existsSync(path.join(pgdata, 'PG_VERSION'))) {
      const baseline = await readBaseline(baselineDir);
      if (baseline.dump) {
        loadDataDir = baseline.dump;
        log(`creating the embedded database from its baseline (${baseline.migrations} migrations applied already)`);
      } else log(`creating the embedded database without a baseline: ${baseline.why}`);
    }
    const pglite = await PGlite.create({ dataDir: pgdata, ...(loadDataDir ? { loadDataDir } : {}) });
    return openPGliteInstance(pglite, async () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATABASE_POOL_SIZE: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_QUERY_TIMEOUT_MS?: number;
  DATABASE_QUEUE_TIMEOUT_MS?: number;
  DATABASE_PROBE_TIMEOUT_MS?: number;
  dataDir: string;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded database under DATA_DIR. */
export async function openDatabase(config: DatabaseSettings): Promise<Database> {
  if (config.DATABASE_URL) {
    return openPostgres({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
      queueTimeoutMs: config.DATABASE_QUEUE_TIMEOUT_MS,
      probeTimeoutMs: config.DATABASE_PROBE_TIMEOUT_MS,
    });
  }
  return openEmbedded(config.dataDir);
}
