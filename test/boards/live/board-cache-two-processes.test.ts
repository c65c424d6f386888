import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { DEAF_AFTER_MS, EventBus, type StaleData } from '../../../src/boards/activity/event-bus.js';
import { runCommand } from '../../../src/cli/run-command.js';
import { openPostgres } from '../../../src/platform/db.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, LogCapture, type TestApp } from '../../helper.js';
import { cliEffects } from '../../../src/cli/effects.js';

/**
 * The board cache with two server instances on one PostgreSQL database (as two processes would
 * be): a change made through one is never served stale by the other once its event arrives there.
 * Embedded databases are single-process, so this runs on PostgreSQL only.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
let one: TestApp;
let two: Awaited<ReturnType<typeof buildApp>>;
let twoDb: ReturnType<typeof openPostgres>;
let url: string;
beforeAll(async () => {
  if (!onPostgres) return;
  one = await buildTestApp();
  url = (one.db.pool!.options as { connectionString: string }).connectionString;
  twoDb = openPostgres({ url });
  two = await buildApp({ events: new EventBus(), config: one.config, db: twoDb, logStream: new LogCapture() });
  await hearing();
});
afterAll(async () => {
  if (!onPostgres) return;
  await two.close();
  await twoDb.close();
  await one.close();
});

/** Both instances listen to each other (nothing is cached before). */
const hearing = () => vi.waitFor(() => expect(one.app.events.hearsAll && two.events.hearsAll).toBe(true), { timeout: 15_000 });

/** Resolves when instance two hears of stale data matching `match`. */
function staleOnTwo(match: (stale: StaleData) => boolean) {
  return new Promise<void>((resolve) => {
    const stop = two.events.onStale((stale) => {
      if (!match(stale)) return;
      stop();
      resolve();
    });
  });
}

/** `heard`, or a failure naming `what` after a bound generous for a loaded 2-core box. */
async function within<T>(heard: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`instance two never heard ${what} (${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([heard, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function cachedOnTwo() {
  const user = await makeUser(one.db);
  const board = await makeBoard(one.db, user.id);
  const { auth } = await makeKey(one.db, user.id);
  const getTwo = (headers: Record<string, string> = {}) => two.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: { ...auth, ...headers } });
  // Two serves it from memory: a write no event announces is not seen there. Only while two hears
  // the others (its own ping back within DEAF_AFTER_MS): on a loaded box a late ping makes it serve
  // from the database, by design, and this premise is then tried again on a quiet moment.
  for (let attempt = 1; ; attempt++) {
    await hearing();
    await one.db.prisma.board.update({ where: { id: board.id }, data: { description: '' } });
    const first = await getTwo();
    expect(first.statusCode).toBe(200);
    await one.db.prisma.board.update({ where: { id: board.id }, data: { description: 'written behind the cache' } });
    const cached = await getTwo();
    if (cached.body === first.body) return { user, board, auth, getTwo, etag: first.headers.etag as string };
    if (attempt === 5) expect(cached.body, 'five times, two served the write behind its cache: it never cached the board').toBe(first.body);
  }
}

it.runIf(onPostgres)('serves the new board, not the cached one, once the change made through the other instance is heard', async () => {
  const { board, auth, getTwo, etag } = await cachedOnTwo();
  const heard = new Promise((resolve) => {
    const stop = two.events.subscribe(board.id, (activity) => {
      stop();
      resolve(activity);
    });
  });
  const made = await one.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name: 'From instance one' } });
  expect(made.statusCode).toBe(201);
  await heard;
  const after = await getTwo({ 'if-none-match': etag });
  expect(after.statusCode).toBe(200);
  expect(after.headers.etag).not.toBe(etag);
  expect(after.json().lists.map((l: { name: string }) => l.name)).toEqual(['From instance one']);
  expect(after.json().description).toBe('written behind the cache');
  // The new content is cached again, and 304 for its own tag.
  expect((await getTwo({ 'if-none-match': after.headers.etag as string })).statusCode).toBe(304);
});

it.runIf(onPostgres)('drops a board on the other instance when a member renames themselves, and when the CLI deletes them', async () => {
  const { user, getTwo } = await cachedOnTwo();
  const session = await loginCookie(one.app, user.email, user.password);
  const renamed = staleOnTwo((stale) => 'userId' in stale && stale.userId === user.id);
  expect((await one.app.inject({ method: 'PATCH', url: '/account', headers: session, payload: { name: 'Renamed Elsewhere' } })).statusCode).toBe(200);
  await renamed;
  expect((await getTwo()).json().members[0].name).toBe('Renamed Elsewhere');

  // The admin CLI as a process of its own: its bus only notifies.
  const other = await makeUser(one.db);
  const board = await makeBoard(one.db, user.id, [{ userId: other.id, role: 'observer' }]);
  const { auth } = await makeKey(one.db, user.id);
  expect((await two.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: auth })).statusCode).toBe(200);
  const cliDb = openPostgres({ url, poolSize: 1 });
  const cliBus = new EventBus();
  cliBus.notifyOnly(cliDb);
  const deleted = staleOnTwo((stale) => 'userId' in stale && stale.userId === other.id);
  try {
    const outcome = await runCommand(['user', 'delete', '--email', other.email], { db: cliDb, config: one.config, events: cliBus, effects: cliEffects(cliBus) });
    expect(outcome.exitCode).toBe(0);
  } finally {
    await cliBus.close();
    await cliDb.close();
  }
  await deleted;
  const emails = (await two.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: auth })).json().members.map((m: { email: string }) => m.email);
  expect(emails).toContain(`deleted-${other.id}@deleted.invalid`);
});

it.runIf(onPostgres)("drops a renamed member's boards on the other instance even when the instance that renamed them cannot send a notification", async () => {
  const { user, getTwo } = await cachedOnTwo();
  const session = await loginCookie(one.app, user.email, user.password);
  // From here on every NOTIFY instance one sends itself after a commit fails (its pings too): a
  // user's change is announced by its own transaction, so it must not depend on them.
  const bus = one.app.events as unknown as { notify: (payload: string) => Promise<unknown> };
  const notify = bus.notify;
  bus.notify = () => Promise.reject(new Error('NOTIFY failed (test)'));
  const renamed = staleOnTwo((stale) => 'userId' in stale && stale.userId === user.id);
  try {
    expect((await one.app.inject({ method: 'PATCH', url: '/account', headers: session, payload: { name: 'Renamed Unheard' } })).statusCode).toBe(200);
    await within(renamed, 'the rename');
  } finally {
    bus.notify = notify;
  }
  expect((await getTwo()).json().members[0].name).toBe('Renamed Unheard');
});

it.runIf(onPostgres)("drops a user's boards on the other instance when no application code tells it: the CLI without a bus, SQL typed by hand", async () => {
  const { user, getTwo } = await cachedOnTwo();
  const cliDb = openPostgres({ url, poolSize: 1 });
  const newEmail = `moved-${user.id}@example.test`;
  const moved = staleOnTwo((stale) => 'userId' in stale && stale.userId === user.id);
  try {
    // A bus that notifies nobody: only the change's own commit can tell instance two.
    const silent = new EventBus();
    const outcome = await runCommand(['user', 'set-email', '--email', user.email, '--new-email', newEmail], { db: cliDb, config: one.config, events: silent, effects: cliEffects(silent) });
    expect(outcome.exitCode).toBe(0);
  } finally {
    await cliDb.close();
  }
  await within(moved, 'the new address');
  expect((await getTwo()).json().members[0].email).toBe(newEmail);

  const renamed = staleOnTwo((stale) => 'userId' in stale && stale.userId === user.id);
  await one.db.pool!.query('UPDATE "User" SET name = $1 WHERE id = $2', ['Renamed By Hand', user.id]);
  await within(renamed, 'the rename by hand');
  expect((await getTwo()).json().members[0].name).toBe('Renamed By Hand');
});

it.runIf(onPostgres)('fails a board change whose NOTIFY cannot be queued rather than commit it unannounced', async () => {
  const owner = await makeUser(one.db);
  const member = await makeUser(one.db);
  const board = await makeBoard(one.db, owner.id, [{ userId: member.id, role: 'member' }]);
  const { auth: ownerAuth } = await makeKey(one.db, owner.id);
  const { auth: memberAuth } = await makeKey(one.db, member.id);
  const getTwo = () => two.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: memberAuth });
  expect((await getTwo()).statusCode).toBe(200);
  // PostgreSQL refuses a channel name over 63 bytes: the removal's own pg_notify fails.
  Object.defineProperty(one.app.events, 'notifyTarget', { configurable: true, get: () => ['x'.repeat(80), 'test'] });
  try {
    const removed = await one.app.inject({ method: 'DELETE', url: `/api/boards/${board.id}/members/${member.id}`, headers: ownerAuth });
    expect(removed.statusCode).toBeGreaterThanOrEqual(500);
  } finally {
    delete (one.app.events as unknown as { notifyTarget?: unknown }).notifyTarget;
  }
  // Nothing committed, so what two serves is not stale: the member is still one.
  expect(await one.db.prisma.boardMember.count({ where: { boardId: board.id, userId: member.id } })).toBe(1);
  expect((await getTwo()).statusCode).toBe(200);
});

it.runIf(onPostgres)('serves nothing from memory while its listener is lost, and forgets everything when it is back', async () => {
  const { board, getTwo } = await cachedOnTwo();
  await twoDb.pool!.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN tb_board_events' AND pid <> pg_backend_pid()`,
  );
  await vi.waitFor(() => expect(two.events.hearsAll).toBe(false), { timeout: 10_000 });
  // Whatever was missed meanwhile: this write announces itself to nobody.
  await one.db.prisma.board.update({ where: { id: board.id }, data: { name: 'Changed while nobody listened' } });
  expect((await getTwo()).json().name).toBe('Changed while nobody listened');
  await hearing();
  expect(two.boardCache.size.boards).toBe(0);
  expect((await getTwo()).json().name).toBe('Changed while nobody listened');
}, 30_000);

it.runIf(onPostgres)('refuses a removed member on the other instance within a second, even when its notification is lost on the way', async () => {
  const owner = await makeUser(one.db);
  const member = await makeUser(one.db);
  const board = await makeBoard(one.db, owner.id, [{ userId: member.id, role: 'member' }]);
  const { auth: ownerAuth } = await makeKey(one.db, owner.id);
  const { auth: memberAuth } = await makeKey(one.db, member.id);
  const getTwo = () => two.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: memberAuth });
  expect((await getTwo()).statusCode).toBe(200);
  expect(two.boardCache.size.boards).toBeGreaterThan(0);

  // Two's listener stops reading (a connection that hangs without breaking): every notification
  // from here on is lost to it, the removal's included, and it is never told that it is deaf.
  const socket = (two.events as unknown as { listener: { connection: { stream: Socket } } }).listener.connection.stream;
  socket.pause();
  const pausedAt = Date.now();
  try {
    expect((await one.app.inject({ method: 'DELETE', url: `/api/boards/${board.id}/members/${member.id}`, headers: ownerAuth })).statusCode).toBe(204);
    // Served from memory only while the last ping two heard is under DEAF_AFTER_MS old: any 200
    // began before then, and after it the removed member is refused, however loaded the machine.
    let last = 0;
    await vi.waitFor(
      async () => {
        const startedAt = Date.now();
        const response = await getTwo();
        if (response.statusCode === 200) last = startedAt;
        expect(response.statusCode).toBe(404);
      },
      { timeout: 15_000, interval: 20 },
    );
    expect(last === 0 || last - pausedAt <= DEAF_AFTER_MS).toBe(true);
    expect(two.events.hearsAll).toBe(false);
  } finally {
    socket.resume();
  }
  await hearing();
  expect((await getTwo()).statusCode).toBe(404);
}, 30_000);
