import type pg from 'pg';
import type { Database } from '../src/platform/db.js';

/**
 * Counts the SQL statements sent to `db` from now on (with `only`: those it matches), at the driver (PGlite's instance, or the
 * pool's client class on PostgreSQL: every pool of that class in this test file). The rate
 * limiter's counter and the outbox workers' polls are left out: they run in the background, not
 * for the request (a test that counts stops the notifier, whose transactions cannot be told apart here).
 */
/**
 * The server's background work, whose statements are never a request's: the outbox workers' polls,
 * the pruning at start (by their tables), and the event bus's ping to itself (requests announce
 * changes in their own statements: `pg_notify(…) FROM unnest(…)` or inside the card functions).
 */
const BACKGROUND = /"RateLimitBucket"|"WebhookDelivery"|"MailMessage"|"Notification"|"UnsubscribeLink"|^SELECT pg_notify\(\$1, \$2\)$/;

export async function countQueries(db: Database, only?: RegExp): Promise<{ readonly count: number; stop(): void }> {
  let count = 0;
  const counted = (text: unknown) => {
    const sql = typeof text === 'string' ? text : ((text as { text?: string } | undefined)?.text ?? '');
    if (!BACKGROUND.test(sql) && (!only || only.test(sql))) count++;
  };
  const restore: (() => void)[] = [];
  const wrap = <T extends object>(target: T, name: keyof T & string) => {
    const original = target[name] as (...a: unknown[]) => unknown;
    (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      counted(args[0]);
      return original.apply(this, args);
    };
    restore.push(() => ((target as Record<string, unknown>)[name] = original));
  };
  if (db.pglite) {
    for (const name of ['query', 'exec', 'transaction'] as const) wrap(db.pglite, name);
  } else {
    const probe = await db.pool!.connect();
    const proto = Object.getPrototypeOf(probe) as pg.Client;
    probe.release();
    wrap(proto, 'query');
  }
  return {
    get count() {
      return count;
    },
    stop: () => restore.forEach((fn) => fn()),
  };
}
