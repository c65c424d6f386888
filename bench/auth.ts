/**
 * What authentication adds to a request: the same trivial route served with and without the
 * /api authentication hook, through app.inject (no network), interleaved, many times.
 * Also the uncached path (the first request of a key in a second), which queries the database.
 * Usage: npx tsx bench/auth.ts [iterations]   (DATABASE_URL set: PostgreSQL, else embedded)
 */
import { PGlite } from '@electric-sql/pglite';
import { createApiKey } from '../src/accounts/keys/create-api-key.js';
import { forgetCredentials } from '../src/accounts/credentials/credential-cache.js';
import { createUser } from '../src/accounts/users/create-user.js';
import { resolveApiKey } from '../src/accounts/credentials/resolve-credential.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { apiAuthentication } from '../src/accounts/credentials/auth.js';
import { openPGliteInstance, openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { EventBus } from '../src/boards/activity/event-bus.js';
import { interleaved, pct, us } from './interleaved.js';

const iterations = Number(process.argv[2] ?? 20_000);
const url = process.env.DATABASE_URL;
const db = url ? openPostgres({ url }) : openPGliteInstance(new PGlite());
await migrate(db);
// The load shedder off: this tight inject loop never lets the event loop idle (bench/rate-limit.ts says more).
const config = configFrom({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...(url ? { DATABASE_URL: url } : {}) });
const app = await buildApp({ events: new EventBus(), config, db });
// Neither is rate limited: authentication alone is measured (bench/rate-limit.ts measures the limiter), and 22,000
// requests of one key would be refused past RATE_LIMIT_MAX.
app.get('/bench/open', { config: { rateLimit: false } }, async () => ({ ok: 1 }));
app.get('/bench/authed', { onRequest: apiAuthentication(config), config: { rateLimit: false } }, async () => ({ ok: 1 }));
await app.ready();

const user = await createUser({ db: db.prisma, email: `bench-${Date.now()}@example.com`, password: 'benchmark-pass' });
const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'read', expiresAt: null });
const headers = { authorization: `Bearer ${token}` };

// Warmed up 2,000 rounds (JIT, the key's cache) before the counted ones.
const [open, authed] = await interleaved(app, ['/bench/open', '/bench/authed'], headers, iterations, 2000);

const uncached: number[] = [];
for (let i = 0; i < 500; i++) {
  forgetCredentials(db.prisma);
  const t0 = performance.now();
  await resolveApiKey({ db: db.prisma, token });
  uncached.push(performance.now() - t0);
}
uncached.sort((a, b) => a - b);

console.log(`database: ${url ? 'PostgreSQL' : 'embedded PGlite'}; ${iterations} requests each`);
console.log(`without auth: median ${us(pct(open, 0.5))}, p99 ${us(pct(open, 0.99))}`);
console.log(`with auth:    median ${us(pct(authed, 0.5))}, p99 ${us(pct(authed, 0.99))}`);
console.log(`added by authentication: median ${us(pct(authed, 0.5) - pct(open, 0.5))}, p99 ${us(pct(authed, 0.99) - pct(open, 0.99))}`);
console.log(`uncached key lookup (once per key per second): median ${us(pct(uncached, 0.5))}, p99 ${us(pct(uncached, 0.99))}`);
await app.close();
await db.close();
