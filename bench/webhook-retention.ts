/**
 * Deleting old webhook events (WEBHOOK_RETENTION): how long the hourly prune takes on a large
 * backlog and when there is nothing to delete, against a floor: the same rows deleted by one plain
 * DELETE statement (no batches, no row locks skipped), on a copy of the same data.
 *
 * Usage: npx tsx bench/webhook-retention.ts [events, default 300000]   (BENCH_DATABASE_URL, default the local server)
 * Two thirds of the events are older than the 30-day retention; 1 % of those still have a pending delivery.
 */
import { openPostgres } from '../src/platform/db.js';
import { migrate } from '../src/platform/database/migrate.js';
import { outboxSql } from '../src/platform/outbox-sql.js';
import { pruneWebhookEvents } from '../src/webhooks/prune-events.js';
import { withBenchDatabase } from './bench-database.js';

const EVENTS = Number(process.argv[2] ?? 300_000);
const RETENTION_MS = 30 * 86_400_000;

async function seed(sql: ReturnType<typeof outboxSql>) {
  await sql(`TRUNCATE "WebhookEvent", "WebhookEndpoint", "Workspace" RESTART IDENTITY CASCADE`, []);
  await sql(`INSERT INTO "Workspace" (id, name, "updatedAt") VALUES (1, 'bench', now())`, []);
  await sql(`INSERT INTO "WebhookEndpoint" (id, "workspaceId", url, secret, "updatedAt") VALUES (1, 1, 'https://receiver.example/hook', 'whsec_bench', now())`, []);
  // Spread over 90 days: the oldest two thirds are past the retention.
  const step = (90 * 86_400) / EVENTS;
  await sql(
    `INSERT INTO "WebhookEvent" (id, "workspaceId", type, body, "createdAt")
     SELECT 'msg_' || g, 1, 'ticket.updated', repeat('x', 400), now() - make_interval(secs => g * $1::double precision) FROM generate_series(1, $2::int) g`,
    [step, EVENTS],
  );
  await sql(
    `INSERT INTO "WebhookDelivery" ("eventId", "endpointId", status, "updatedAt")
     SELECT id, 1, (CASE WHEN hashtext(id) % 100 = 0 THEN 'pending' ELSE 'succeeded' END)::"DeliveryStatus", now() FROM "WebhookEvent"`,
    [],
  );
  await sql(`INSERT INTO "WebhookAttempt" ("deliveryId", "startedAt", "durationMs", "statusCode", succeeded) SELECT id, now(), 5, 200, true FROM "WebhookDelivery"`, []);
  await sql(`ANALYZE`, []);
}

const count = async (sql: ReturnType<typeof outboxSql>) => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookEvent"`, []))[0]!.n;

await withBenchDatabase('webhook retention', async (url) => {
  // Seeding and the floor's single DELETE run longer than the server's 2 s statement timeout (QUERY_TIMEOUT_MS).
  const db = openPostgres({ url, poolSize: 2, queryTimeoutMs: 600_000 });
  await migrate(db);
  const sql = outboxSql(db);

  await seed(sql);
  let t0 = performance.now();
  const [floor] = await sql<{ n: number }>(
    `WITH gone AS (
       DELETE FROM "WebhookEvent" e WHERE e."createdAt" < now() - make_interval(secs => $1::double precision / 1000)
         AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e.id AND d.status = 'pending') RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [RETENTION_MS],
  );
  const floorMs = performance.now() - t0;

  await seed(sql);
  t0 = performance.now();
  const deleted = await pruneWebhookEvents(db, RETENTION_MS);
  const pruneMs = performance.now() - t0;
  const left = await count(sql);

  const idle: number[] = [];
  for (let i = 0; i < 20; i++) {
    t0 = performance.now();
    await pruneWebhookEvents(db, RETENTION_MS);
    idle.push(performance.now() - t0);
  }
  idle.sort((a, b) => a - b);
  await db.close();

  console.log(`${EVENTS.toLocaleString('en')} events with one delivery and one attempt each; ${left.toLocaleString('en')} left after the prune`);
  console.log('| what | events deleted | time | per 1,000 events |');
  console.log('|---|---|---|---|');
  console.log(`| floor: one DELETE statement | ${floor!.n.toLocaleString('en')} | ${floorMs.toFixed(0)} ms | ${((floorMs / floor!.n) * 1000).toFixed(1)} ms |`);
  console.log(`| prune, 2,000 events looked at a transaction | ${deleted.toLocaleString('en')} | ${pruneMs.toFixed(0)} ms (${((100 * floorMs) / pruneMs).toFixed(0)} % of the floor's speed) | ${((pruneMs / deleted) * 1000).toFixed(1)} ms |`);
  console.log(`| prune with nothing to delete (median of 20) | 0 | ${idle[10]!.toFixed(1)} ms | - |`);
});
