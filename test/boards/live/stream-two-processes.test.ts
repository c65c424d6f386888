import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openPostgres } from '../../../src/platform/db.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, type TestApp } from '../../helper.js';
import { SseClient } from '../../sse-client.js';
import { EventBus } from '../../../src/boards/activity/event-bus.js';

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
  two = await buildApp({ events: new EventBus(), config: one.config, db: twoDb });
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

it.runIf(onPostgres)('ends its streams when its listener connection comes back, and a resume replays what it could not hear', async () => {
  const user = await makeUser(one.db);
  const board = await makeBoard(one.db, user.id);
  const { auth } = await makeKey(one.db, user.id);
  const urlTwo = await two.listen({ port: 0, host: '127.0.0.1' }).catch(() => `http://127.0.0.1:${(two.server.address() as { port: number }).port}`);
  const stream = await SseClient.open(`${urlTwo}/api/boards/${board.id}/events`, auth);
  const first = await one.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name: 'Heard' } });
  expect(first.statusCode).toBe(201);
  const [heard] = await stream.waitFor(1);

  // The database drops instance two's LISTEN connection (a failover, a restart of PostgreSQL).
  // Both instances' listeners on this test's database go (other test files have databases of their own).
  const { rowCount } = await twoDb.pool!.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN tb_board_events' AND pid <> pg_backend_pid()`,
  );
  expect(rowCount).toBe(2);
  const missed = await one.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name: 'Made while not listening' } });
  expect(missed.statusCode).toBe(201);

  // Once listening again, instance two ends the stream; the client resumes and gets the change.
  await Promise.race([stream.ended, new Promise((_, fail) => setTimeout(() => fail(new Error('the stream was not ended')), 10_000))]);
  const resumed = await SseClient.open(`${urlTwo}/api/boards/${board.id}/events`, { ...auth, 'last-event-id': heard!.id! });
  const [replayed] = await resumed.waitFor(1);
  expect(JSON.parse(replayed!.data).data.list.name).toBe('Made while not listening');
  resumed.close();
}, 30_000);
