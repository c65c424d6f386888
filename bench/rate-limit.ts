/**
 * What the rate limiter adds to a request: the same authenticated route served with and without
 * the limiter (`config.rateLimit: false` exempts a route, as /healthz is), through app.inject (no
 * network), interleaved, many times. The key is known to the limiter after its first request, so
 * each counted request is one upsert into the RateLimitBucket table (or one Redis call).
 * Below half its budget a key is counted in memory (flushed every 50 ms); past half, each request
 * waits for the shared store; over its limit it is answered from memory. All three are measured.
 * Usage: npx tsx bench/rate-limit.ts [iterations]
 *   DATABASE_URL set: PostgreSQL, else embedded; REDIS_URL set: counters in Redis.
 */
import { PGlite } from '@electric-sql/pglite';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { createUser } from '../src/accounts/users/create-user.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { apiAuthentication } from '../src/accounts/credentials/auth.js';
import { openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { EventBus } from '../src/boards/activity/event-bus.js';
import { interleaved, pct, us } from './interleaved.js';

const iterations = Number(process.argv[2] ?? 20_000);
const url = process.env.DATABASE_URL;
const redis = process.env.REDIS_URL;
const db = url ? openPostgres({ url }) : openPGliteInstance(new PGlite());
await migrate(db);
const config = configFrom({
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '100000000',
  // The loop is never idle in this tight inject loop, so its lag can pass the shedder's limit on a busy machine
  // (a 503 ended a run): shedding is not what is measured.
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  ...(url ? { DATABASE_URL: url } : {}),
  ...(redis ? { REDIS_URL: redis } : {}),
});
const app = await buildApp({ events: new EventBus(), config, db });
app.get('/bench/unlimited', { onRequest: apiAuthentication(config), config: { rateLimit: false } }, async () => ({ ok: 1 }));
app.get('/bench/limited', { onRequest: apiAuthentication(config) }, async () => ({ ok: 1 }));
await app.ready();

const user = await createUser({ db: db.prisma, email: `bench-${Date.now()}@example.com`, password: 'benchmark-pass' });
const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'read', expiresAt: null });
const headers = { authorization: `Bearer ${token}` };

// Warmed up 2,000 rounds (JIT, the key's cache, the limiter's store) before the counted ones.
const [unlimited, limited] = await interleaved(app, ['/bench/unlimited', '/bench/limited'], headers, iterations, 2000);

// A key past half its budget: every request is counted in the shared store and waits for it.
const second = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench-busy', permission: 'read', expiresAt: null });
const busyHeaders = { authorization: `Bearer ${second.token}` };
await app.inject({ method: 'GET', url: '/bench/limited', headers: busyHeaders });
if (redis) {
  const { Redis } = await import('ioredis');
  const client = new Redis(redis);
  await client.set(`taskboard:rl:k:${second.key.id}`, 60_000_000, 'PX', 3_600_000);
  client.disconnect();
} else {
  await db.prisma.$executeRaw`INSERT INTO "RateLimitBucket" (key, count, "resetAt") VALUES (${`k:${second.key.id}`}, 60000000, now() + interval '1 hour')
    ON CONFLICT (key) DO UPDATE SET count = 60000000, "resetAt" = now() + interval '1 hour'`;
}
await new Promise((r) => setTimeout(r, 1100)); // the process reads the shared count again
const [plain, shared] = await interleaved(app, ['/bench/unlimited', '/bench/limited'], busyHeaders, iterations);
await app.close();

// A client over its limit: answered from this process's memory, no store call.
// A key of its own and an hour's window: the first key's window, opened seconds ago in the shared store, could end
// mid-loop and let one request through (a run ended on "expected 429, got 200").
const tight = await buildApp({ events: new EventBus(), config: { ...config, RATE_LIMIT_MAX: 1, RATE_LIMIT_WINDOW_MS: 3_600_000 }, db });
tight.get('/bench/limited', { onRequest: apiAuthentication(config) }, async () => ({ ok: 1 }));
await tight.ready();
const third = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench-tight', permission: 'read', expiresAt: null });
const tightHeaders = { authorization: `Bearer ${third.token}` };
for (let i = 0; i < 10; i++) await tight.inject({ method: 'GET', url: '/bench/limited', headers: tightHeaders });
const refused: number[] = [];
for (let i = 0; i < Math.min(iterations, 5000); i++) {
  const t0 = performance.now();
  const res = await tight.inject({ method: 'GET', url: '/bench/limited', headers: tightHeaders });
  refused.push(performance.now() - t0);
  if (res.statusCode !== 429) throw new Error(`expected 429, got ${res.statusCode}`);
}
refused.sort((a, b) => a - b);
await tight.close();

console.log(`database: ${url ? 'PostgreSQL' : 'embedded PGlite'}; counters: ${redis ? 'Redis' : 'database'}; ${iterations} requests each`);
console.log(`authenticated, not limited: median ${us(pct(unlimited, 0.5))}, p99 ${us(pct(unlimited, 0.99))}`);
console.log(`authenticated and counted:  median ${us(pct(limited, 0.5))}, p99 ${us(pct(limited, 0.99))}`);
console.log(`added by the rate limiter: median ${us(pct(limited, 0.5) - pct(unlimited, 0.5))}, p99 ${us(pct(limited, 0.99) - pct(unlimited, 0.99))}`);
console.log(`past half the budget (store round trip each): median ${us(pct(shared, 0.5))}, p99 ${us(pct(shared, 0.99))}; added: median ${us(pct(shared, 0.5) - pct(plain, 0.5))}`);
console.log(`over the limit (429 from memory): median ${us(pct(refused, 0.5))}, p99 ${us(pct(refused, 0.99))}`);
await db.close();
