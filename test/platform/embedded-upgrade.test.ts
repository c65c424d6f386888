import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PGlite as PGlite04 } from 'pglite-v04';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Database, openEmbedded, openPGliteInstance } from '../../src/platform/db.js';
import { migrate } from '../../src/platform/database/migrate.js';
import { EMBEDDED_PG_MAJOR } from '../../src/platform/database/upgrade-embedded.js';
import { ask, answerWorkspace } from '../answers/answer-fixtures.js';
import { client, makeCard, makeList } from '../board-factories.js';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { LogCapture, testConfig, type TestAppHandle } from '../helper.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

/**
 * A data directory written by the previous embedded database (PGlite 0.4, PostgreSQL 17, what
 * this project ran until December 2026) opens on this one with its boards, cards and
 * conversations: the test writes such a directory itself with the old PGlite's package.
 */
describe('an embedded database written by PGlite 0.4 (PostgreSQL 17)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function appOn(db: Database, dataDir: string) {
    const config = testConfig({ DATA_DIR: dataDir });
    const logs = new LogCapture();
    const app = await buildApp({ events: new EventBus(), config, db, logStream: logs, docsAtStart: false });
    return { app, db, config, logs } as { app: FastifyInstance; db: Database; config: typeof config; logs: LogCapture };
  }

  // Migrating a new embedded database and carrying it over each take tens of seconds on a busy box.
  it('is carried over once, with every board, card and conversation, and the old directory kept', { timeout: 400_000 }, async () => {
    const t0 = Date.now();
    const mark = (what: string) => console.log(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tb-upgrade-'));
    dirs.push(dataDir);
    const pgdata = path.join(dataDir, 'pgdata');

    // Today's main: the old PGlite, migrated, used through the app as a person would.
    const old = new PGlite04(pgdata);
    const oldDb = openPGliteInstance(old as never);
    await migrate(oldDb);
    mark('old database migrated');
    const before = await appOn(oldDb, dataDir);
    await before.app.ready();
    const owner = await makeUser(oldDb, { email: 'owner@upgrade.test', password: 'correct horse battery' });
    const board = await makeBoard(oldDb, owner.id, [], 'Roadmap');
    const { cookie } = await loginCookie(before.app, owner.email, 'correct horse battery');
    const api = client(before.app, { cookie });
    const list = await makeList(api, board.id, 'Doing');
    const card = await makeCard(api, list.id, 'Ship the upgrade', 'Keep **every** row');
    const support = await answerWorkspace(before as unknown as TestAppHandle);
    const answered = await ask(before as unknown as TestAppHandle, support.token, { message: 'How do I reset my password?', conversationRef: 'upgrade-1' });
    expect(answered.statusCode).toBe(200);
    const conversationId = answered.json().conversationId as string;
    const counts = async (db: Database) =>
      (await db.prisma.$queryRawUnsafe<Record<string, bigint>[]>(
        `SELECT (SELECT count(*) FROM "Board") AS boards, (SELECT count(*) FROM "Card") AS cards,
                (SELECT count(*) FROM "Conversation") AS conversations, (SELECT count(*) FROM "Article") AS articles,
                (SELECT count(*) FROM "User") AS users, (SELECT count(*) FROM _prisma_migrations) AS migrations`,
      ))[0]!;
    const countsBefore = await counts(oldDb);
    mark('old database filled');
    await before.app.close();
    await oldDb.close();
    expect(readFileSync(path.join(pgdata, 'PG_VERSION'), 'utf8').trim()).toBe('17');

    // This version: openEmbedded carries the directory over, then the app reads what was there.
    const messages: string[] = [];
    const newDb = await openEmbedded(dataDir, (m) => messages.push(m));
    mark('carried over');
    try {
      expect(readFileSync(path.join(pgdata, 'PG_VERSION'), 'utf8').trim()).toBe(EMBEDDED_PG_MAJOR);
      expect(existsSync(`${pgdata}.pg17`)).toBe(true);
      expect(messages.join('\n')).toMatch(/PostgreSQL 17.*carrying it over to PostgreSQL 19/s);
      expect(await counts(newDb)).toEqual(countsBefore);
      const after = await appOn(newDb, dataDir);
      try {
        const { cookie: again } = await loginCookie(after.app, owner.email, 'correct horse battery');
        const fetched = await after.app.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: { cookie: again } });
        expect(fetched.statusCode).toBe(200);
        const cardRes = await after.app.inject({ method: 'GET', url: `/api/cards/${card.id}`, headers: { cookie: again } });
        expect(cardRes.statusCode).toBe(200);
        expect(cardRes.json().card ?? cardRes.json()).toMatchObject({ title: 'Ship the upgrade', description: 'Keep **every** row' });
        // Sequences came along: a new card gets a new id, not a clash with an old one.
        const newer = await makeCard(client(after.app, { cookie: again }), list.id, 'After the upgrade');
        expect(newer.id).toBeGreaterThan(card.id);
        // The conversation continues where it was.
        const followUp = await ask(after as unknown as TestAppHandle, support.token, { message: 'And how do I change it?', conversationRef: 'upgrade-1' });
        expect(followUp.statusCode).toBe(200);
        expect(followUp.json().conversationId).toBe(conversationId);
      } finally {
        await after.app.close();
      }
    } finally {
      await newDb.close();
    }

    // A second start has nothing to carry over.
    const messages2: string[] = [];
    const again = await openEmbedded(dataDir, (m) => messages2.push(m));
    await again.close();
    expect(messages2).toEqual([]);
  });
});
