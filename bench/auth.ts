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

const iterations = Number(process.argv[2] ?? 20_000);
const url = process.env.DATABASE_URL;
const db = url ? openPostgres({ url }) : openPGliteInstance(new PGlite());
await migrate(db);
const config = configFrom({ LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) });
const app = await buildApp({ events: new EventBus(), config, db });
app.get('/bench/open', async () => ({ ok: 1 }));
app.get('/bench/authed', { onRequest: apiAuthentication(config) }, async () => ({ ok: 1 }));
await app.ready();

const user = await createUser({ db: db.prisma, email: `bench-${Date.now()}@example.com`, password: 'benchmark-pass' });
const { token } = await createApiKey({ db: db.prisma, userId: user.id, name: 'bench', permission: 'read', expiresAt: null });
const headers = { authorization: `Bearer ${token}` };

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

for (let i = 0; i < 2000; i++) {
  await app.inject({ method: 'GET', url: '/bench/open' });
  await app.inject({ method: 'GET', url: '/bench/authed', headers });
}
const open: number[] = [];
const authed: number[] = [];
for (let i = 0; i < iterations; i++) {
  let t0 = performance.now();
  await app.inject({ method: 'GET', url: '/bench/open', headers });
  open.push(performance.now() - t0);
  t0 = performance.now();
  const res = await app.inject({ method: 'GET', url: '/bench/authed', headers });
  authed.push(performance.now() - t0);
  if (res.statusCode !== 200) throw new Error(`authed request failed: ${res.statusCode}`);
}
open.sort((a, b) => a - b);
authed.sort((a, b) => a - b);

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
