import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openPostgres } from '../../src/platform/db.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';
import { SseClient } from '../sse-client.js';

/**
 * Two server instances on one PostgreSQL database (as two processes would be): a change made
 * through one reaches streams held by the other, through LISTEN/NOTIFY. Embedded databases are
 * single-process, so this runs on PostgreSQL only (TEST_DATABASE_URL or DATABASE_URL).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
let one: TestApp;
let two: Awaited<ReturnType<typeof buildApp>>;
let twoDb: ReturnType<typeof openPostgres>;
beforeAll(async () => {
  if (!onPostgres) return;
  one = await buildTestApp();
  const url = (one.db.pool!.options as { connectionString: string }).connectionString;
  twoDb = openPostgres({ url });
  two = await buildApp({ config: one.config, db: twoDb });
});
afterAll(async () => {
  if (!onPostgres) return;
  await two.close();
  await twoDb.close();
  await one.close();
});

it.runIf(onPostgres)('delivers a change made through one instance to a stream held by the other', async () => {
  const user = await makeUser(one.db);
  const board = await makeBoard(one.db, user.id);
  const { auth } = await makeKey(one.db, user.id);
  const urlTwo = await two.listen({ port: 0, host: '127.0.0.1' });
  const stream = await SseClient.open(`${urlTwo}/api/boards/${board.id}/events`, auth);
  await new Promise((r) => setTimeout(r, 200)); // the listener connection is up
  const made = await one.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name: 'From instance one' } });
  expect(made.statusCode).toBe(201);
  const [event] = await stream.waitFor(1);
  expect(event!.event).toBe('list.created');
  expect(JSON.parse(event!.data).data.list.name).toBe('From instance one');
  await new Promise((r) => setTimeout(r, 200));
  expect(stream.events).toHaveLength(1);
  stream.close();
});
