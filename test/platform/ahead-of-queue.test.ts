import { afterEach, expect, it } from 'vitest';
import { checkApiKey } from '../../src/accounts/credentials/resolve-credential.js';
import { aheadOfQueue, type Database, openPostgres } from '../../src/platform/db.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { createTestDatabase } from '../helper.js';
import { countQueries } from '../query-count.js';

const url = process.env.TEST_DATABASE_URL;
let db: Database | undefined;
let other: Database | undefined;

afterEach(async () => {
  await db?.close();
  await other?.close();
  db = other = undefined;
});

/** Resolves once `n` checkouts wait for a connection of `pool`. */
async function waiting(pool: NonNullable<Database['pool']>, n: number) {
  while (pool.waitingCount < n) await new Promise((r) => setTimeout(r, 1));
}

// A credential lookup or a rate-limit count decides whether a request may run at all: with every
// connection busy, it must take the next free one before the requests already waiting, or each
// request that needs one waits for the whole queue twice.
it.runIf(url)('a statement run ahead of the queue takes the next free connection before those already waiting (needs TEST_DATABASE_URL)', async () => {
  db = openPostgres({ url: url!, poolSize: 1, queryTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  const { prisma, pool } = db;
  await prisma.$queryRawUnsafe('SELECT 1');
  const order: string[] = [];
  const busy = pool!.query('SELECT pg_sleep(0.5)');
  // Wait until the one connection is taken, so that everything below queues.
  while (pool!.idleCount > 0) await new Promise((r) => setTimeout(r, 5));
  // Each one queued before the next is sent (Prisma reaches the pool a few ticks after the call).
  const queued = [prisma.$queryRawUnsafe('SELECT 1').then(() => order.push('request 1'))];
  await waiting(pool!, 1);
  queued.push(prisma.$queryRawUnsafe('SELECT 2').then(() => order.push('request 2')));
  await waiting(pool!, 2);
  queued.push(pool!.query('SELECT 3').then(() => order.push('request 3')));
  await waiting(pool!, 3);
  const lookup = aheadOfQueue(() => prisma.$queryRawUnsafe('SELECT 4')).then(() => order.push('lookup (Prisma)'));
  await waiting(pool!, 4);
  const count = aheadOfQueue(() => pool!.query('SELECT 5')).then(() => order.push('count (driver)'));
  await waiting(pool!, 5);
  await Promise.all([busy, ...queued, lookup, count]);
  // Both jumped the three waiting requests; between themselves they keep their order.
  expect(order).toEqual(['lookup (Prisma)', 'count (driver)', 'request 1', 'request 2', 'request 3']);
});

it.runIf(url)('a waiting request is overtaken by at most four statements sent ahead, however many come (needs TEST_DATABASE_URL)', async () => {
  db = openPostgres({ url: url!, poolSize: 1, queryTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  const pool = db.pool!;
  await pool.query('SELECT 1');
  const order: string[] = [];
  const busy = pool.query('SELECT pg_sleep(0.3)');
  while (pool.idleCount > 0) await new Promise((r) => setTimeout(r, 5));
  const request = pool.query('SELECT 0').then(() => order.push('request'));
  await waiting(pool, 1);
  const ahead = Array.from({ length: 6 }, (_, i) => aheadOfQueue(() => pool.query('SELECT 1')).then(() => order.push(`ahead ${i + 1}`)));
  await Promise.all([busy, request, ...ahead]);
  expect(order).toEqual(['ahead 1', 'ahead 2', 'ahead 3', 'ahead 4', 'request', 'ahead 5', 'ahead 6']);
});

// The storage that marks these statements is switched off whenever none is in flight (it costs
// every promise of the process while on): one finishing must not switch it off under another.
it.runIf(url)('a statement sent ahead still goes ahead when another one sent ahead finished meanwhile (needs TEST_DATABASE_URL)', async () => {
  db = openPostgres({ url: url!, poolSize: 1, queryTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  other = openPostgres({ url: url!, poolSize: 1, queryTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  const { prisma, pool } = db;
  await prisma.$queryRawUnsafe('SELECT 1');
  // The one connection of `pool` stays busy until the test lets it go (a lock `other` holds), not
  // for a set time: on a busy machine the steps below may take longer than any such time.
  await other.pool!.query('SELECT pg_advisory_lock(4217)');
  const order: string[] = [];
  const busy = pool!.query('SELECT pg_advisory_xact_lock(4217)');
  while (pool!.idleCount > 0) await new Promise((r) => setTimeout(r, 5));
  const request = prisma.$queryRawUnsafe('SELECT 1').then(() => order.push('request'));
  await waiting(pool!, 1);
  let quickDone = false;
  // Sent ahead, but it reaches the pool only after the quick one below has finished.
  const slow = aheadOfQueue(async () => {
    while (!quickDone) await new Promise((r) => setTimeout(r, 5));
    return prisma.$queryRawUnsafe('SELECT 2');
  }).then(() => order.push('ahead'));
  await aheadOfQueue(() => other!.pool!.query('SELECT 3'));
  quickDone = true;
  await waiting(pool!, 2);
  await other.pool!.query('SELECT pg_advisory_unlock(4217)');
  await Promise.all([busy, request, slow]);
  expect(order).toEqual(['ahead', 'request']);
});

it.runIf(url)("an API key's lookup is one statement, and it goes ahead of the requests waiting (needs TEST_DATABASE_URL)", async () => {
  db = await createTestDatabase();
  const user = await makeUser(db);
  const board = await makeBoard(db, user.id);
  const { token } = await makeKey(db, user.id, { boardIds: [board.id] });
  const counted = await countQueries(db);
  expect('key' in (await checkApiKey({ db: db.prisma, token }))).toBe(true);
  counted.stop();
  // One statement: a lookup of several would go ahead for its first only, then wait its turn.
  expect(counted.count).toBe(1);

  // The same database through a pool of one connection, held busy with a request waiting.
  other = openPostgres({ url: (db.pool!.options as { connectionString: string }).connectionString, poolSize: 1, queryTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  const pool = other.pool!;
  await pool.query('SELECT 1');
  const order: string[] = [];
  const busy = pool.query('SELECT pg_sleep(0.3)');
  while (pool.idleCount > 0) await new Promise((r) => setTimeout(r, 5));
  const request = other.prisma.$queryRawUnsafe('SELECT 1').then(() => order.push('request'));
  await waiting(pool, 1);
  const check = checkApiKey({ db: other.prisma, token }).then((checked) => order.push('key' in checked ? 'key accepted' : 'key refused'));
  await Promise.all([busy, request, check]);
  expect(order).toEqual(['key accepted', 'request']);
});

it('runs the statements as usual when nothing waits', async () => {
  if (url) {
    db = openPostgres({ url, poolSize: 2 });
    expect(await aheadOfQueue(() => db!.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT 7 AS n'))).toEqual([{ n: 7 }]);
  } else {
    expect(await aheadOfQueue(async () => 7)).toBe(7);
  }
});
