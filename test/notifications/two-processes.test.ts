import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { createTestDatabase, waitUntil } from '../helper.js';
import { type ReceivedMail, useLoopbackSmtp } from '../smtp-server.js';
import { type ServerProcess, startServer } from '../webhooks/process-helpers.js';

/**
 * Two server processes on one PostgreSQL database, each running its notifier and its mail
 * worker, as a deployment with two replicas does. Changes go through both at once, so both
 * notifiers are woken by their own commits and both poll (every 100 ms) for the other's: the
 * cursor's lock, the per-person lock on pending notifications and the mail outbox's lease must
 * make each change one notification per person, in exactly one mail, sent once. Embedded
 * databases are single-process, so this runs on PostgreSQL only (TEST_DATABASE_URL).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);

const CARDS = 16;

describe.runIf(onPostgres)('notifications with two server processes on one PostgreSQL database', () => {
  const smtp = useLoopbackSmtp();
  let db: Database;
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = (db.pool!.options as { connectionString: string }).connectionString;
    const env = async (): Promise<NodeJS.ProcessEnv> => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'tb-notify-'));
      dirs.push(dir);
      return {
        ...process.env,
        ...smtp.env({ MAIL_POLL_MS: '100', NOTIFY_MAIL_BATCH_SECONDS: '1', MAIL_RETRY_SCHEDULE: '200ms,200ms,200ms' }),
        DATABASE_URL: url,
        TEST_DATABASE_URL: '',
        DATA_DIR: dir,
        // The database is a copy of the migrated template: neither process migrates (nor do both at once).
        MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '1000000',
        OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
        SEMANTIC_RANKING: 'false',
        PUBLIC_BASE_URL: 'http://tb.example.test',
      };
    };
    const [a, b] = await Promise.all([startServer(await env()), startServer(await env())]);
    servers.push(a, b);
  }, 200_000);

  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    }
    await db?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('tells each person of each change once, in exactly one mail, sent once, whichever process reads it', { timeout: 180_000 }, async () => {
    const ada = await makeUser(db, { name: 'Ada Two' });
    const bea = await makeUser(db, { name: 'Bea Two', email: `bea-two-${Date.now()}@example.test` });
    const cy = await makeUser(db, { name: 'Cy Two', email: `cy-two-${Date.now()}@example.test` });
    const board = await makeBoard(db, ada.id, [
      { userId: bea.id, role: 'member' },
      { userId: cy.id, role: 'member' },
    ]);
    const { auth } = await makeKey(db, ada.id);
    const call = async (server: ServerProcess, method: string, route: string, body?: unknown) => {
      const res = await fetch(server.base + route, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status, `${method} ${route}: ${res.status}`).toBeLessThan(300);
      return (await res.json()) as { id: number };
    };
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const list = await call(one, 'POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const titles = Array.from({ length: CARDS }, (_, i) => `Card ${i} of two`);
    const cards = [];
    for (const title of titles) cards.push(await call(one, 'POST', `/api/lists/${list.id}/cards`, { title }));

    // Each card: Bea assigned through one process, Cy mentioned through the other, all at once.
    const mention = `@${cy.email.split('@')[0]}`;
    await Promise.all(
      cards.map((card, i) =>
        Promise.all([
          call(i % 2 ? two : one, 'PUT', `/api/cards/${card.id}/members/${bea.id}`),
          call(i % 2 ? one : two, 'POST', `/api/cards/${card.id}/comments`, { text: `${mention} please check` }),
        ]),
      ),
    );

    const listed = (mails: ReceivedMail[], phrase: string) => titles.map((title) => mails.filter((m) => m.text.includes(`${phrase} “${title}”`)).length);
    // Every change told, and every batch settled: no notification left to mail, no mail left to send.
    await waitUntil(async () => {
      if (listed(smtp.to(bea.email), 'assigned you to').includes(0) || listed(smtp.to(cy.email), 'mentioned you on').includes(0)) return false;
      const unsettled =
        (await db.prisma.notification.count({ where: { userId: { in: [bea.id, cy.id] }, mail: 'pending' } })) +
        (await db.prisma.mailMessage.count({ where: { recipient: { in: [bea.email, cy.email] }, status: 'pending' } }));
      return unsettled === 0;
    }, 120_000);
    // Many polls of both processes later: nothing more comes.
    await new Promise((r) => setTimeout(r, 2000));

    // One notification per person per change …
    const notifications = await db.prisma.notification.findMany({ where: { userId: { in: [bea.id, cy.id] } }, select: { userId: true, kind: true, mail: true } });
    expect(notifications.filter((n) => n.userId === bea.id && n.kind === 'assigned')).toHaveLength(CARDS);
    expect(notifications.filter((n) => n.userId === cy.id && n.kind === 'mentioned')).toHaveLength(CARDS);
    expect(notifications).toHaveLength(2 * CARDS);
    expect(notifications.every((n) => n.mail === 'mailed')).toBe(true);

    // … in exactly one mail (never two batches holding the same change), each mail received once …
    expect(listed(smtp.to(bea.email), 'assigned you to')).toEqual(titles.map(() => 1));
    expect(listed(smtp.to(cy.email), 'mentioned you on')).toEqual(titles.map(() => 1));
    const received = [...smtp.to(bea.email), ...smtp.to(cy.email)];
    expect(new Set(received.map((m) => m.messageId)).size).toBe(received.length);

    // … and each outbox row handed to the SMTP server once, by one of the two workers.
    const rows = await db.prisma.mailMessage.findMany({ where: { recipient: { in: [bea.email, cy.email] } }, select: { status: true, attempts: true, messageId: true } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ['sent', 1]));
    expect(new Set(rows.map((r) => r.messageId))).toEqual(new Set(received.map((m) => m.messageId)));
    expect(smtp.to(ada.email)).toHaveLength(0);
  });
});
