import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { aheadOfQueue, type Database } from '../db.js';

/** One fixed-window counter: how many requests `key` made in its window, and ms until it ends. */
export interface Count {
  current: number;
  ttl: number;
}

/** Where the counters live, shared by every process that uses the same database or Redis. */
export interface CounterBackend {
  kind: 'database' | 'redis';
  /**
   * Adds `by` to the key's counter (a new window starts when the last one ended). `waited`: a
   * request waits for the answer (sent ahead of the database pool's queue); else a background flush.
   */
  incr(key: string, windowMs: number, by?: number, waited?: boolean): Promise<Count>;
  close(): Promise<void>;
}

const INCREMENT = `
INSERT INTO "RateLimitBucket" AS b (key, count, "resetAt")
VALUES ($1, $3::int, clock_timestamp() + make_interval(secs => $2::double precision / 1000))
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN b."resetAt" <= clock_timestamp() THEN excluded.count ELSE b.count + excluded.count END,
  "resetAt" = CASE WHEN b."resetAt" <= clock_timestamp() THEN excluded."resetAt" ELSE b."resetAt" END
RETURNING b.count AS current, GREATEST(0, ceil(extract(epoch FROM b."resetAt" - clock_timestamp()) * 1000))::int AS ttl`;

/**
 * Counters in the RateLimitBucket table (unlogged: no WAL flush per request): one upsert per
 * counted request, on the driver directly (no Prisma round trip). Expired rows are swept every
 * minute by whichever process gets there.
 */
export function databaseCounters(db: Database): CounterBackend {
  const query = async (text: string, params: unknown[], name?: string, waited = false): Promise<Record<string, unknown>[]> => {
    // A named (prepared) statement on PostgreSQL: parsed and planned once per connection. A count
    // a request waits for goes ahead of the requests waiting for a connection (it decides whether
    // that request may run); flushes and the sweep wait their turn.
    const pool = db.pool;
    if (pool) {
      const send = () => pool.query({ name, text, values: params });
      return (await (waited ? aheadOfQueue(send) : send())).rows;
    }
    if (db.pglite) return (await db.pglite.query<Record<string, unknown>>(text, params)).rows;
    return db.withSession((session) => session.query(text, params));
  };
  const sweep = setInterval(() => {
    query(`DELETE FROM "RateLimitBucket" WHERE "resetAt" < now() - interval '1 minute'`, []).catch(() => {});
  }, 60_000);
  sweep.unref();
  let closed = false;
  return {
    kind: 'database',
    async incr(key, windowMs, by = 1, waited = false) {
      // A background flush may fire after the app closed: it must not write to a database that
      // is no longer this app's (tests hand an emptied embedded database to the next app).
      if (closed) throw new Error('rate-limit counters closed');
      const [row] = await query(INCREMENT, [key, windowMs, by], 'taskboard-rate-limit-incr', waited);
      return { current: Number(row!.current), ttl: Number(row!.ttl) };
    },
    async close() {
      closed = true;
      clearInterval(sweep);
    },
  };
}

const REDIS_INCREMENT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

type RateLimitRedis = Redis & { taskboardRateLimit(key: string, windowMs: number, by: number): Promise<[number, number]> };

/**
 * Counters in Redis (REDIS_URL): one script call (INCR, and PEXPIRE on a window's first request).
 * Commands fail at once while Redis is unreachable (no offline queue) rather than wait.
 */
export async function redisCounters(url: string): Promise<CounterBackend> {
  const { Redis: RedisClient } = await import('ioredis'); // only when REDIS_URL is set
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 500,
    keyPrefix: 'taskboard:rl:',
  }) as RateLimitRedis;
  redis.on('error', () => {}); // reconnects by itself; requests meanwhile are not limited (logged per request)
  redis.defineCommand('taskboardRateLimit', { numberOfKeys: 1, lua: REDIS_INCREMENT });
  await redis.connect().catch(() => {});
  return {
    kind: 'redis',
    // `waited` is the database's concern (its pool's queue); Redis answers in order.
    async incr(key, windowMs, by = 1) {
      const [current, ttl] = await redis.taskboardRateLimit(key, windowMs, by);
      return { current, ttl };
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** How often counts taken locally are added to the shared counters. */
export const FLUSH_INTERVAL_MS = 50;
/** A key's shared count is read again at least this often while it is in use. */
const LOCAL_FRESH_MS = 1000;

type Answer = (error: Error | null, result?: Count) => void;

interface Local {
  /** The shared counter as last read: it includes every count of this process answered so far. */
  shared: number;
  /** Counted here since, not yet added to the shared counter. */
  pending: number;
  /** Sent by the call under way and not yet in `shared`: still counted meanwhile. */
  inFlight: number;
  /** One call at a time per key, so each answer includes every count sent before it. */
  busy: boolean;
  /** Requests that need the shared count, sent together by the next call. */
  waiting: { answer: Answer; max: number }[];
  resetAt: number;
  readAt: number;
  windowMs: number;
}

/**
 * The store @fastify/rate-limit calls, over a shared backend, cheap on the hot path:
 * - below half its budget (as last read, within LOCAL_FRESH_MS, plus what this process counted
 *   since), a request is counted in memory and answered at once; those counts are added to the
 *   shared counter every FLUSH_INTERVAL_MS, in the background;
 * - a key's first request in this process, and every request past half its budget, waits for
 *   the shared counter. One call per key is under way at a time: requests arriving meanwhile wait
 *   and are counted by the next call together, each taking its place in the answer. So a process
 *   never admits more than a budget, however many requests arrive at once;
 * - several processes see each other's in-memory counts only once flushed: together they admit at
 *   most max + (N − 1) × ⌊max / 2⌋ in a window (docs/operations.md, "Rate limits");
 * - a key over its limit is remembered until its window ends: a client that keeps hammering is
 *   answered from memory, with no database or Redis work at all.
 */
export function storeOver(backend: CounterBackend, defaults: { windowMs: number; max: number }) {
  const blocked = new Map<string, number>();
  const local = new Map<string, Local>();
  let flushing: NodeJS.Timeout | null = null;

  const scheduleFlush = () => {
    flushing ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
  };

  const call = (key: string, entry: Local) => {
    const batch = entry.waiting;
    entry.waiting = [];
    const by = entry.pending + batch.length;
    entry.pending = 0;
    entry.inFlight = by;
    entry.busy = true;
    backend.incr(key, entry.windowMs, by, batch.length > 0).then(
      (count) => {
        const at = Date.now();
        Object.assign(entry, { busy: false, inFlight: 0, shared: count.current, resetAt: at + count.ttl, readAt: at });
        // The batch's requests are the last `batch.length` of the `by` just counted, in arrival order.
        batch.forEach(({ answer, max }, i) => {
          const current = count.current - batch.length + 1 + i;
          if (current > max) {
            if (blocked.size >= 100_000) blocked.clear();
            blocked.set(key, at + count.ttl);
          }
          answer(null, { current, ttl: count.ttl });
        });
        next(key, entry);
      },
      (error: Error) => {
        // Lost counts: the store is down, and requests then fail or go unlimited anyway.
        Object.assign(entry, { busy: false, inFlight: 0 });
        for (const { answer } of batch) answer(error);
        next(key, entry);
      },
    );
  };

  const next = (key: string, entry: Local) => {
    if (entry.waiting.length > 0) call(key, entry);
    else if (entry.pending > 0) scheduleFlush();
  };

  const flush = () => {
    flushing = null;
    const now = Date.now();
    for (const [key, entry] of local) {
      if (now >= entry.resetAt && !entry.busy) {
        local.delete(key); // its window ended: counts still pending belonged to it
        continue;
      }
      // A key with a call under way sends its pending counts when that call answers.
      if (entry.pending > 0 && !entry.busy) call(key, entry);
    }
  };

  return class CounterStore implements FastifyRateLimitStore {
    constructor(_options: FastifyRateLimitOptions) {}

    // The plugin passes the window and the limit (its typings do not say so yet).
    incr(key: string, callback: Answer, timeWindow = defaults.windowMs, max = defaults.max) {
      const now = Date.now();
      const until = blocked.get(key);
      if (until !== undefined) {
        if (until > now) {
          callback(null, { current: max + 1, ttl: until - now });
          return;
        }
        blocked.delete(key);
      }
      let entry = local.get(key);
      if (!entry || now >= entry.resetAt || entry.windowMs !== timeWindow) {
        // A new window (or key): its count is unknown until read, so nothing is taken in memory.
        entry = { shared: 0, pending: 0, inFlight: 0, busy: false, waiting: [], resetAt: now + timeWindow, readAt: -Infinity, windowMs: timeWindow };
        if (local.size >= 100_000) local.clear();
        local.set(key, entry);
      }
      const counted = entry.shared + entry.inFlight + entry.pending + 1;
      if (now - entry.readAt < LOCAL_FRESH_MS && entry.waiting.length === 0 && 2 * counted <= max) {
        entry.pending++;
        scheduleFlush();
        callback(null, { current: counted, ttl: entry.resetAt - now });
        return;
      }
      entry.waiting.push({ answer: callback, max });
      if (!entry.busy) call(key, entry);
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
