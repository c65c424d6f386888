import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Database } from './db.js';

/** One fixed-window counter: how many requests `key` made in its window, and ms until it ends. */
export interface Count {
  current: number;
  ttl: number;
}

/** Where the counters live, shared by every process that uses the same database or Redis. */
export interface CounterBackend {
  kind: 'database' | 'redis';
  /** Adds `by` to the key's counter (a new window starts when the last one ended). */
  incr(key: string, windowMs: number, by?: number): Promise<Count>;
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
  const query = async (text: string, params: unknown[], name?: string): Promise<Record<string, unknown>[]> => {
    // A named (prepared) statement on PostgreSQL: parsed and planned once per connection.
    if (db.pool) return (await db.pool.query({ name, text, values: params })).rows;
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
    async incr(key, windowMs, by = 1) {
      // A background flush may fire after the app closed: it must not write to a database that
      // is no longer this app's (tests hand an emptied embedded database to the next app).
      if (closed) throw new Error('rate-limit counters closed');
      const [row] = await query(INCREMENT, [key, windowMs, by], 'taskboard-rate-limit-incr');
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
  const redis = new Redis(url, {
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

interface Local {
  /** The shared counter as last read (it includes every flushed local count). */
  shared: number;
  /** Counted here since, not yet added to the shared counter. */
  pending: number;
  /** Sent to the shared counter by a flush that has not answered yet (so not in `shared`). */
  inFlight: number;
  resetAt: number;
  readAt: number;
  windowMs: number;
}

/**
 * The store @fastify/rate-limit calls, over a shared backend, cheap on the hot path:
 * - a key's first request in this process, and every request once the key has used half its
 *   budget, is counted in the shared store and waits for the answer (exact where it matters);
 * - below half its budget, a request is counted in memory and answered at once; those counts are
 *   added to the shared counter every FLUSH_INTERVAL_MS, in the background. Other processes see
 *   them that much later, so several processes together can let a burst overshoot a budget by
 *   what they accept locally within one flush interval — never by more than half a budget each;
 * - a key over its limit is remembered until its window ends: a client that keeps hammering is
 *   answered from memory, with no database or Redis work at all.
 */
export function storeOver(backend: CounterBackend, defaults: { windowMs: number; max: number }) {
  const blocked = new Map<string, number>();
  const local = new Map<string, Local>();
  let flushing: NodeJS.Timeout | null = null;

  const flush = () => {
    flushing = null;
    const now = Date.now();
    for (const [key, entry] of local) {
      if (now >= entry.resetAt) {
        local.delete(key); // its window ended: counts still pending belonged to it
        continue;
      }
      if (entry.pending === 0) continue;
      const by = entry.pending;
      entry.pending = 0;
      // Still counted while the flush is under way: RateLimit-Remaining must not go back up meanwhile.
      entry.inFlight += by;
      backend.incr(key, entry.windowMs, by).then(
        (count) => {
          entry.inFlight -= by;
          entry.shared = Math.max(entry.shared, count.current);
          entry.resetAt = Date.now() + count.ttl;
          entry.readAt = Date.now();
        },
        () => {
          entry.inFlight -= by; // lost counts: the store is down, and requests then fail or go unlimited anyway
        },
      );
    }
  };

  return class CounterStore implements FastifyRateLimitStore {
    constructor(_options: FastifyRateLimitOptions) {}

    // The plugin passes the window and the limit (its typings do not say so yet).
    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow = defaults.windowMs, max = defaults.max) {
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
      if (entry && (now >= entry.resetAt || entry.windowMs !== timeWindow)) {
        local.delete(key);
        entry = undefined;
      }
      if (entry && now - entry.readAt < LOCAL_FRESH_MS && 2 * (entry.shared + entry.inFlight + entry.pending + 1) <= max) {
        entry.pending++;
        flushing ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
        callback(null, { current: entry.shared + entry.inFlight + entry.pending, ttl: entry.resetAt - now });
        return;
      }
      // Counted in the shared store now, together with what this process counted meanwhile.
      const by = (entry?.pending ?? 0) + 1;
      if (entry) entry.pending = 0;
      backend.incr(key, timeWindow, by).then(
        (count) => {
          const at = Date.now();
          const current = local.get(key) ?? { shared: 0, pending: 0, inFlight: 0, resetAt: 0, readAt: 0, windowMs: timeWindow };
          Object.assign(current, { shared: count.current, resetAt: at + count.ttl, readAt: at });
          if (local.size >= 100_000) local.clear();
          local.set(key, current);
          if (count.current > max) {
            if (blocked.size >= 100_000) blocked.clear();
            blocked.set(key, at + count.ttl);
          }
          callback(null, count);
        },
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
