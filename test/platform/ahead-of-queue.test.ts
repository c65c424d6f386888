import { afterEach, expect, it } from 'vitest';
import { aheadOfQueue, type Database, openPostgres } from '../../src/platform/db.js';

const url = process.env.TEST_DATABASE_URL;
let db: Database | undefined;

afterEach(async () => {
  await db?.close();
  db = undefined;
});

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
  const waiting = async (n: number) => {
    while (pool!.waitingCount < n) await new Promise((r) => setTimeout(r, 1));
  };
  const queued = [prisma.$queryRawUnsafe('SELECT 1').then(() => order.push('request 1'))];
  await waiting(1);
  queued.push(prisma.$queryRawUnsafe('SELECT 2').then(() => order.push('request 2')));
  await waiting(2);
  queued.push(pool!.query('SELECT 3').then(() => order.push('request 3')));
  await waiting(3);
  const lookup = aheadOfQueue(() => prisma.$queryRawUnsafe('SELECT 4')).then(() => order.push('lookup (Prisma)'));
  await waiting(4);
  const count = aheadOfQueue(() => pool!.query('SELECT 5')).then(() => order.push('count (driver)'));
  await waiting(5);
  await Promise.all([busy, ...queued, lookup, count]);
  // Both jumped the three waiting requests; between themselves they keep their order.
  expect(order).toEqual(['lookup (Prisma)', 'count (driver)', 'request 1', 'request 2', 'request 3']);
});

it('runs the statements as usual when nothing waits', async () => {
  if (url) {
    db = openPostgres({ url, poolSize: 2 });
    expect(await aheadOfQueue(() => db!.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT 7 AS n'))).toEqual([{ n: 7 }]);
  } else {
    expect(await aheadOfQueue(async () => 7)).toBe(7);
  }
});
