import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type Config, configFrom } from '../src/config.js';
import { type Database, openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { adminQuery, testServerUrl, withDatabaseName } from './postgres-server.js';

/** A fresh, migrated database of its own: a copy of the run's template. */
export async function createTestDatabase(): Promise<Database> {
  const postgresTemplate = inject('postgresTemplate');
  const serverUrl = testServerUrl();
  if (postgresTemplate && serverUrl) {
    const name = `tb_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${postgresTemplate}"`);
    const db = openPostgres({ url: withDatabaseName(serverUrl, name), poolSize: 10 });
    const close = db.close;
    db.close = async () => {
      await close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return db;
  }
  const file = inject('pgliteTemplate');
  if (!file) throw new Error('the global setup provided no template database');
  const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  return openPGliteInstance(pglite);
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
 * The real app on a fresh database, not listening (use app.inject, or app.listen for streams).
 * Not yet ready, so a test may add routes of its own before the first request. Its DATA_DIR
 * (attachments, admin socket) is a temporary directory of its own unless `env` names one.
 */
export async function buildTestApp(env: Record<string, string> = {}, options: Partial<BuildAppOptions> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const ownDir = env.DATA_DIR ? null : await mkdtemp(path.join(os.tmpdir(), 'tb-test-data-'));
  // Tests make many requests with one key: the rate limit is far away unless a test sets it.
  const config = configFrom({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '1000000000',
    // A loaded CI machine (browser tests beside the rest) can lag the loop past the shedding
    // threshold: tests of behaviour must not get 503s for it. test/platform/overload.test.ts sets it.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(ownDir ? { DATA_DIR: ownDir } : {}),
    ...env,
  });
  const logs = new LogCapture();
  const app = await buildApp({ config, db, logStream: logs, ...options });
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

