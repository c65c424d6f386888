import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { outboxSql } from '../../src/platform/outbox-sql.js';
import { pruneWebhookEvents } from '../../src/webhooks/prune-events.js';
import { buildTestApp, type TestApp } from '../helper.js';
import { webhookWorkspace } from './webhook-fixtures.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

const DAY = 86_400_000;
let t: TestApp;

beforeEach(async () => {
  // No dispatcher: the deliveries made here keep the status the test gives them.
  t = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhookDispatcher: false });
});
afterEach(() => t.close());

/** An event `ageDays` old with one delivery per status given, each with one attempt. */
async function event(id: string, workspaceId: number, endpointIds: number[], ageDays: number, statuses: string[]) {
  const sql = outboxSql(t.db);
  await sql(
    `INSERT INTO "WebhookEvent" (id, "workspaceId", type, body, "createdAt") VALUES ($1, $2, 'ticket.created', '{}', now() - make_interval(days => $3))`,
    [id, workspaceId, ageDays],
  );
  for (const [i, status] of statuses.entries()) {
    const [d] = await sql<{ id: number }>(
      `INSERT INTO "WebhookDelivery" ("eventId", "endpointId", status, "nextAttemptAt", "updatedAt") VALUES ($1, $2, $3::"DeliveryStatus", now() + interval '1 day', now()) RETURNING id`,
      [id, endpointIds[i], status],
    );
    await sql(`INSERT INTO "WebhookAttempt" ("deliveryId", "startedAt", "durationMs", "statusCode", succeeded) VALUES ($1, now(), 5, 500, false)`, [d!.id]);
  }
}

const count = async (table: string) => (await outboxSql(t.db)<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`, []))[0]!.n;
const eventIds = async () => (await outboxSql(t.db)<{ id: string }>(`SELECT id FROM "WebhookEvent" ORDER BY id`, [])).map((r) => r.id);

describe('webhook event retention (WEBHOOK_RETENTION)', () => {
  it('deletes old events whose deliveries are all settled, with their deliveries and attempts; keeps pending and recent ones', async () => {
    const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hook');
    const second = (await w.admin('webhook', 'create', '--workspace', String(w.workspaceId), '--url', 'http://127.0.0.1:9/other')) as { id: number };
    const endpoints = [w.endpoint.id, second.id];
    await event('msg_old_succeeded', w.workspaceId, endpoints, 40, ['succeeded']);
    await event('msg_old_failed', w.workspaceId, endpoints, 40, ['failed', 'succeeded']);
    await event('msg_old_pending', w.workspaceId, endpoints, 40, ['pending']);
    await event('msg_old_one_pending', w.workspaceId, endpoints, 40, ['succeeded', 'pending']);
    await event('msg_recent', w.workspaceId, endpoints, 10, ['succeeded']);

    expect(await pruneWebhookEvents(t.db, 30 * DAY)).toBe(2);
    expect(await eventIds()).toEqual(['msg_old_one_pending', 'msg_old_pending', 'msg_recent']);
    // 4 deliveries (and their attempts) left: 1 + 2 + 1.
    expect(await count('WebhookDelivery')).toBe(4);
    expect(await count('WebhookAttempt')).toBe(4);
    // Nothing more to do: a second run deletes nothing.
    expect(await pruneWebhookEvents(t.db, 30 * DAY)).toBe(0);
    // The endpoints themselves are untouched.
    expect(await count('WebhookEndpoint')).toBe(2);
  });

  it('deletes a backlog larger than a batch, past a batch of old events kept for their pending deliveries', async () => {
    const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hook');
    const sql = outboxSql(t.db);
    // The oldest 2,500 events (more than a batch) are still owed; the 4,321 after them are settled.
    await sql(
      `INSERT INTO "WebhookEvent" (id, "workspaceId", type, body, "createdAt")
       SELECT 'msg_bulk_' || lpad(g::text, 5, '0'), $1, 'ticket.created', '{}', now() - interval '60 days' + make_interval(secs => g) FROM generate_series(1, 6821) g`,
      [w.workspaceId],
    );
    await sql(
      `INSERT INTO "WebhookDelivery" ("eventId", "endpointId", status, "updatedAt")
       SELECT id, $1, (CASE WHEN id <= 'msg_bulk_02500' THEN 'pending' ELSE 'failed' END)::"DeliveryStatus", now() FROM "WebhookEvent"`,
      [w.endpoint.id],
    );
    await event('msg_recent', w.workspaceId, [w.endpoint.id], 1, ['succeeded']);
    expect(await pruneWebhookEvents(t.db, 30 * DAY)).toBe(4321);
    expect(await count('WebhookEvent')).toBe(2501);
    expect(await count('WebhookDelivery')).toBe(2501);
    expect((await eventIds()).at(-1)).toBe('msg_recent');
  });

  it('runs when a server starts, with the configured retention', async () => {
    const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hook');
    await event('msg_three_days', w.workspaceId, [w.endpoint.id], 3, ['failed']);
    await event('msg_one_day', w.workspaceId, [w.endpoint.id], 1, ['failed']);
    const config = { ...t.config, WEBHOOK_RETENTION: 2 * DAY };
    const server = await buildApp({ events: new EventBus(), config, db: t.db, logStream: t.logs, docsAtStart: false });
    await server.ready();
    // Closing waits for a prune under way, so the start's prune has finished here.
    await server.close();
    expect(await eventIds()).toEqual(['msg_one_day']);
    expect(t.logs.lines.some((l) => l.msg === 'old webhook events deleted' && l.deleted === 1)).toBe(true);
  });

  it('stops between batches when the server closes, rather than holding up the shutdown', async () => {
    const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hook');
    await outboxSql(t.db)(
      `INSERT INTO "WebhookEvent" (id, "workspaceId", type, body, "createdAt")
       SELECT 'msg_bulk_' || g, $1, 'ticket.created', '{}', now() - interval '60 days' FROM generate_series(1, 10000) g`,
      [w.workspaceId],
    );
    const server = await buildApp({ events: new EventBus(), config: t.config, db: t.db, logStream: t.logs, docsAtStart: false });
    await server.ready();
    await server.close();
    // The batch under way when closing began was finished; the rest waits for the next start.
    const left = await count('WebhookEvent');
    expect(left).toBeGreaterThan(0);
    expect(await pruneWebhookEvents(t.db, 30 * DAY)).toBe(left);
  });

  // The embedded database runs one transaction at a time: the race needs two connections.
  it.skipIf(!process.env.TEST_DATABASE_URL)('keeps a delivery that a redelivery makes pending while the prune runs (PostgreSQL)', async () => {
    const pool = t.db.pool!;
    const w = await webhookWorkspace(t, 'http://127.0.0.1:9/hook');
    await event('msg_old', w.workspaceId, [w.endpoint.id], 40, ['failed']);
    // redeliverFailedSince's UPDATE on its own connection, not yet committed when the prune starts.
    const redelivery = await pool.connect();
    try {
      await redelivery.query('BEGIN');
      const moved = await redelivery.query(`UPDATE "WebhookDelivery" SET status = 'pending', round = 0, "nextAttemptAt" = now() WHERE "endpointId" = $1 AND status = 'failed'`, [
        w.endpoint.id,
      ]);
      expect(moved.rowCount).toBe(1);
      const pruning = pruneWebhookEvents(t.db, 30 * DAY);
      await new Promise((r) => setTimeout(r, 300));
      await redelivery.query('COMMIT');
      expect(await pruning).toBe(0);
    } finally {
      redelivery.release();
    }
    expect(await eventIds()).toEqual(['msg_old']);
    expect((await outboxSql(t.db)<{ status: string }>(`SELECT status::text FROM "WebhookDelivery"`, []))[0]!.status).toBe('pending');
  });
});
