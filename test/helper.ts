import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type Config, configFrom } from '../src/config.js';
import { type Database, openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { adminQuery, testServerUrl, withDatabaseName } from './postgres-server.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

/** A fresh, migrated database of its own: a copy of the run's template. */
export async function createTestDatabase(): Promise<Database> {
  const postgresTemplate = inject('postgresTemplate');
  const serverUrl = testServerUrl();
  if (postgresTemplate && serverUrl) {
    const name = `tb_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${postgresTemplate}"`);
    // Waits for a pooled connection and for queries get 20 s rather than the server's 2 s: on a
    // loaded 2-core CI machine, 60 requests contending for one checklist's locks waited past 2 s
    // and got 503. The liveness probe gets 5 s too, so a starved machine is not taken for a frozen
    // server. Tests of those deadlines build their own database (database-unavailable.test.ts).
    const db = openPostgres({ url: withDatabaseName(serverUrl, name), poolSize: 10, connectTimeoutMs: 20_000, queueTimeoutMs: 20_000, queryTimeoutMs: 20_000, probeTimeoutMs: 5000 });
    const close = db.close;
    db.close = async () => {
      await close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return db;
  }
  const file = inject('pgliteTemplate');
  if (!file) throw new Error('the global setup provided no template database');
  const pglite = idle.pop() ?? (await PGlite.create({ loadDataDir: (template ??= new Blob([readFileSync(file)])) }));
  const db = openPGliteInstance(pglite);
  // Closing gives the instance back emptied rather than ending it: starting an embedded
  // database costs ~0.5 s of CPU, emptying one ~20 ms, and a run opens a few hundred.
  db.close = async () => {
    await db.prisma.$disconnect();
    if (!(await emptied(pglite))) await pglite.close();
    else if (idle.length < 2) idle.push(pglite);
    else await pglite.close();
  };
  return db;
}

/** Embedded databases of this worker, emptied, ready for the next test file (vitest runs a worker's files in one module graph). */
const idle: PGlite[] = [];
let template: Blob | undefined;
let templateShape: string | undefined;

/** The schema as migrations made it: a database whose schema a test changed is not reused. */
const SHAPE = `
  SELECT md5(string_agg(table_name || '.' || column_name || ':' || data_type, ',' ORDER BY table_name, column_name))
    || (SELECT count(*) FROM _prisma_migrations)::text
    || (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)::text
    || (SELECT count(*) FROM pg_indexes WHERE schemaname = 'public')::text AS shape
  FROM information_schema.columns WHERE table_schema = 'public'`;

/** Empties a test's embedded database back to the template's state; false when it cannot be reused. */
async function emptied(pglite: PGlite): Promise<boolean> {
  if (pglite.closed) return false;
  try {
    await pglite.exec('ROLLBACK'); // a test may have left a transaction open (a warning when none is)
    const [row] = (await pglite.query<{ shape: string }>(SHAPE)).rows;
    templateShape ??= await shapeOfTemplate();
    if (row?.shape !== templateShape) return false;
    await pglite.exec(`
      DO $$ BEGIN
        EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ') || ' RESTART IDENTITY CASCADE'
                 FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations');
      END $$;`);
    await pglite.exec('DISCARD ALL'); // on its own: not allowed inside the implicit transaction of a multi-statement query
    return true;
  } catch {
    return false;
  }
}

async function shapeOfTemplate(): Promise<string> {
  const fresh = await PGlite.create({ loadDataDir: template! });
  try {
    return (await fresh.query<{ shape: string }>(SHAPE)).rows[0]!.shape;
  } finally {
    await fresh.close();
  }
}

/** Log lines the app wrote, parsed, for tests that look at logging. */
export class LogCapture extends Writable {
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get lines(): Record<string, unknown>[] {
    return this.raw.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  logs: LogCapture;
  close(): Promise<void>;
}

/**
 * The configuration every app a test builds starts from, whoever builds it (buildTestApp, or a
 * test that builds two apps on one database): tests make many requests with one key, so the
 * rate limit is far away unless a test sets it; and a loaded CI machine (browser tests beside the
 * rest) can lag the loop past the shedding threshold, so load shedding is off — tests of
 * behaviour must not get 503 "overloaded" for it. test/platform/overload.test.ts turns it on.
 * Semantic ranking is off unless a test turns it on (test/answers/semantic-ranking.test.ts): the
 * sentence encoder costs each app a worker of ~200 MB, and the answers tests pin lexical behaviour.
 */
export function testConfig(env: Record<string, string> = {}) {
  return configFrom({ NODE_ENV: 'test', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000000', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', SEMANTIC_RANKING: 'false', ...env });
}

/**
 * The real app on a fresh database, not listening (use app.inject, or app.listen for streams).
 * Not yet ready, so a test may add routes of its own before the first request. Its DATA_DIR
 * (attachments, admin socket) is a temporary directory of its own unless `env` names one.
 */
export async function buildTestApp(env: Record<string, string> = {}, options: Partial<BuildAppOptions> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const ownDir = env.DATA_DIR ? null : await mkdtemp(path.join(os.tmpdir(), 'tb-test-data-'));
  const config = testConfig({ ...(ownDir ? { DATA_DIR: ownDir } : {}), ...env });
  const logs = new LogCapture();
  // Documents are built when a test asks for one: most never do, and building them costs ~150 ms an app.
  const app = await buildApp({ events: new EventBus(), config, db, logStream: logs, docsAtStart: false, ...options });
  return {
    app,
    db,
    config,
    logs,
    async close() {
      await app.close();
      await db.close();
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}

/** What a test reads of its app; close() stays with whoever built it. */
export type TestAppHandle = Omit<TestApp, 'close'>;

/**
 * The real app on a fresh database for the tests of this file, or of the describe block it is
 * called in: built before them (buildTestApp, so testConfig()'s defaults hold unless `env` sets
 * its own) and closed after them. The handle's properties are read inside tests and hooks; before
 * the app is built they throw. `env` may be a function when it holds what an earlier beforeAll
 * learns (a receiver's port): it is called when the app is built. Hooks registered after this
 * call run once the app is built, and their after-hooks before it is closed (vitest runs
 * after-hooks in reverse order).
 */
export function useTestApp(env: Record<string, string> | (() => Record<string, string>) = {}, options: Partial<BuildAppOptions> = {}): TestAppHandle {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await buildTestApp(typeof env === 'function' ? env() : env, options);
  });
  afterAll(async () => {
    const closing = built;
    built = undefined;
    await closing?.close();
  });
  const current = () => {
    if (!built) throw new Error('useTestApp(): the app exists only inside the tests and hooks of the block that asked for it');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
    get config() {
      return current().config;
    },
    get logs() {
      return current().logs;
    },
  };
}

/** Waits until `check` holds, polling every 100 ms (a loaded machine gets its time: wait for conditions, not for sleeps). */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
