import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openPostgres } from '../../../src/platform/db.js';
import { BOARD_TEST_ENV, client, expectError, expectNoContent, expectStatus, makeCard, makeList } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, LogCapture, type TestApp, testConfig } from '../../helper.js';
import { startTestS3, type TestS3 } from '../../s3-server.js';
import { EventBus } from '../../../src/boards/activity/event-bus.js';

/**
 * Two server instances (as two processes behind a load balancer would be) on one PostgreSQL
 * database and one S3-compatible bucket, each with a DATA_DIR of its own: a file uploaded through
 * one is downloaded, ranged and deleted through the other. Embedded databases are single-process,
 * so this runs on PostgreSQL only (TEST_DATABASE_URL or DATABASE_URL).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
let s3: TestS3;
let one: TestApp;
let two: Awaited<ReturnType<typeof buildApp>>;
let twoDb: ReturnType<typeof openPostgres>;
let twoDir: string;
beforeAll(async () => {
  if (!onPostgres) return;
  s3 = await startTestS3();
  one = await buildTestApp({ ...BOARD_TEST_ENV, ATTACHMENTS_S3_URL: s3.url });
  const url = (one.db.pool!.options as { connectionString: string }).connectionString;
  twoDb = openPostgres({ url });
  twoDir = await mkdtemp(path.join(os.tmpdir(), 'tb-test-data-'));
  two = await buildApp({
    events: new EventBus(),
    config: testConfig({ ...BOARD_TEST_ENV, DATA_DIR: twoDir, ATTACHMENTS_S3_URL: s3.url }),
    db: twoDb,
    logStream: new LogCapture(),
  });
});
afterAll(async () => {
  if (!onPostgres) return;
  await two?.close();
  await twoDb?.close();
  await one?.close();
  await s3?.close();
  if (twoDir) await rm(twoDir, { recursive: true, force: true });
});

it.skipIf(!onPostgres)('serves through one instance the file uploaded through the other (needs TEST_DATABASE_URL: embedded databases are single-process)', async () => {
  const user = await makeUser(one.db);
  const { auth } = await makeKey(one.db, user.id);
  const board = await makeBoard(one.db, user.id);
  const list = await makeList(client(one.app, auth), board.id);
  const card = await makeCard(client(one.app, auth), list.id);
  const data = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(64 * 1024)]);
  const boundary = 'two-processes';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const made = await one.app.inject({
    method: 'POST',
    url: `/api/cards/${card.id}/attachments`,
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expectStatus(made, 201);
  const { id } = made.json();

  const got = await two.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: auth });
  expectStatus(got, 200);
  expect(got.headers['content-type']).toBe('application/pdf');
  expect(got.rawPayload.equals(data)).toBe(true);
  const part = await two.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: { ...auth, range: 'bytes=0-7' } });
  expectStatus(part, 206);
  expect(part.rawPayload.toString()).toBe('%PDF-1.7');

  // Deleted through the second: the object goes, and the first no longer serves it.
  const row = await one.db.prisma.attachment.findUniqueOrThrow({ where: { id } });
  expectNoContent(await two.inject({ method: 'DELETE', url: `/api/attachments/${id}`, headers: auth }));
  const deadline = Date.now() + 5000;
  while ((await s3.keys()).includes(`${s3.prefix}objects/${row.storageKey}`)) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the object to be removed');
    await new Promise((r) => setTimeout(r, 25));
  }
  expectError(await one.app.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: auth }), 404);
});
