import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { type Database, openPostgres } from '../../../src/platform/db.js';
import { migrate } from '../../../src/platform/database/migrate.js';
import { BOARD_TEST_ENV } from '../../board-factories.js';
import { makeKey, makeUser } from '../../factories.js';
import { testConfig, useTestApp } from '../../helper.js';
import { adminQuery, testServerUrl, withDatabaseName } from '../../postgres-server.js';
import { plainTrelloExport } from './large-export.js';
import { EventBus } from '../../../src/boards/activity/event-bus.js';

/*
 * Board imports as large as the 20 MB limit allows (issue #44, item 7): 50,000 cards (8.5 MB) and
 * 100,000 (17 MB) were 503 "database unavailable" on PostgreSQL (one INSERT of every card past the
 * 2 s statement budget), and blocked the event loop for seconds (a dry run 3.3 s: parsing and checking
 * on it). Heavy by nature: at load 35 on 2 cores the 100,000-card imports took 70-100 s and the file
 * about 6 minutes (less on a quiet machine); generating a file takes ~0.2 s (strings joined, no objects).
 */

/**
 * Polls /healthz over HTTP every 50 ms until stopped; the worst lateness is how long an answer
 * took past the moment it was due (a blocked event loop delays the timer and the answer alike).
 */
function pollHealth(base: string) {
  let stopped = false;
  let worst = 0;
  let answers = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      const due = performance.now() + 50;
      await new Promise((r) => setTimeout(r, 50));
      const res = await fetch(`${base}/healthz`).catch((error: Error) => ({ status: 0, error }));
      if (res.status !== 200) failures.push(String(res.status));
      answers++;
      worst = Math.max(worst, performance.now() - due);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { worst, answers, failures };
    },
  };
}

async function importWhilePolling(app: FastifyInstance, db: Database, cards: number, dryRun = false) {
  const user = await makeUser(db);
  const key = await makeKey(db, user.id);
  const file = plainTrelloExport(cards);
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const poller = pollHealth(base);
  const started = performance.now();
  const res = await fetch(`${base}/api/boards/import${dryRun ? '?dryRun=true' : ''}`, { method: 'POST', headers: { ...key.auth, 'content-type': 'application/json' }, body: file });
  const ms = performance.now() - started;
  const health = await poller.stop();
  const body = (await res.json()) as { board: { id: number } | null; summary: { cards: number } };
  return { status: res.status, body, health, bytes: file.length, ms };
}

/**
 * The event loop was never held for the import: /healthz answered within 1 s, or, on a machine so
 * loaded that the process gets a sliver of a core (load 35 on 2 cores: 2-6 s stalls in imports of
 * 40-100 s), within a third of the import's time. Before the fix it was held for most or nearly all
 * of it (a dry run: 44 s of 74; 50,000 cards embedded: 177 s of 188), or the import was a 503. A
 * fifth was too tight for CI: a dry run of 12.3 s there stalled 2.47 s once (one collection of the
 * 100,000 cards' objects the event loop takes, on a busy core), against a bound of 2.45 s.
 */
const stallBound = (ms: number) => Math.max(1000, ms / 3);

/** The import answers 201 with every card written, and /healthz answered all along (stallBound). */
async function expectImported(app: FastifyInstance, db: Database, cards: number) {
  const { status, body, health, bytes, ms } = await importWhilePolling(app, db, cards);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(201);
  expect(bytes).toBeLessThan(20 * 1024 * 1024);
  expect(body.summary.cards).toBe(cards);
  expect(await db.prisma.card.count({ where: { boardId: body.board!.id } })).toBe(cards);
  // Every card's search document was made (one statement per chunk, not one for the board).
  expect(await db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "Card" WHERE "boardId" = ${body.board!.id} AND search IS NULL`).toEqual([{ n: 0 }]);
  expect(health.failures).toEqual([]);
  expect(health.answers).toBeGreaterThan(0);
  expect(health.worst).toBeLessThan(stallBound(ms));
}

describe('imports of 50,000 and 100,000 cards on the suite\'s database', () => {
  const t = useTestApp(BOARD_TEST_ENV);
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('a dry run of 100,000 cards answers 200, /healthz answering throughout', async () => {
    const { status, body, health, ms } = await importWhilePolling(t.app, t.db, 100_000, true);
    expect(status).toBe(200);
    expect(body.summary.cards).toBe(100_000);
    expect(health.failures).toEqual([]);
    expect(health.worst).toBeLessThan(stallBound(ms));
  }, 180_000);

  it('imports 50,000 cards (201), /healthz answering throughout', async () => {
    await expectImported(t.app, t.db, 50_000);
  }, 300_000);

  it('imports 100,000 cards (201), /healthz answering throughout', async () => {
    await expectImported(t.app, t.db, 100_000);
  }, 300_000);
});

// The production budgets (DATABASE_QUERY_TIMEOUT_MS and DATABASE_CONNECT_TIMEOUT_MS of 2 s) on a
// real PostgreSQL server: the suite's own databases get 20 s, which hid the 503.
const realServer = testServerUrl() ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const serverAnswers = await (async () => {
  const client = new pg.Client({ connectionString: realServer, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!serverAnswers)('on PostgreSQL with the production database budgets (2 s a statement)', () => {
  const name = `tb_large_import_${process.pid}_${Date.now()}`;
  let db: Database;
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tb-test-data-'));
    await adminQuery(realServer, `CREATE DATABASE "${name}"`);
    const url = withDatabaseName(realServer, name);
    const config = testConfig({ ...BOARD_TEST_ENV, DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    db = openPostgres({ url, connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS, queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS });
    await migrate(db);
    app = await buildApp({ events: new EventBus(), config, db, docsAtStart: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await adminQuery(realServer, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('imports 50,000 cards (201, never 503), /healthz answering throughout', async () => {
    await expectImported(app, db, 50_000);
  }, 300_000);

  it('imports 100,000 cards (201, never 503), /healthz answering throughout', async () => {
    await expectImported(app, db, 100_000);
  }, 300_000);
});
