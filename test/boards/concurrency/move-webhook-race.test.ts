import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOARD_TEST_ENV, expectStatus, makeList, makeTeam } from '../../board-factories.js';
import { makeBoard } from '../../factories.js';
import { buildTestApp, type TestApp } from '../../helper.js';

/**
 * A move is one statement outside any transaction when its boards have no webhook. A webhook
 * committed while the move waits for its locks must still get the move's event, in the move's
 * own transaction: the statement rolls back (TBHK1) and runs again inside one that writes the
 * outbox. Two connections are needed (one holds the list's lock), so this runs on PostgreSQL only.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  if (onPostgres) t = await buildTestApp({ ...BOARD_TEST_ENV, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1h' });
});
afterAll(() => t?.close());

it.runIf(onPostgres)('writes the event of a webhook added while the move waited for its locks', async () => {
  const team = await makeTeam(t, { cards: 1 });
  const target = await makeList(team.as.admin, team.board.id, 'Target');
  // The endpoint is made on another board, then moved onto this one while the move waits.
  const elsewhere = await makeBoard(t.db, team.admin.id);
  const hook = await team.as.admin.post(`/api/boards/${elsewhere.id}/webhooks`, { url: 'http://127.0.0.1:9/never-called' });
  expectStatus(hook, 201);

  const holder = new pg.Client({ connectionString: (t.db.pool!.options as { connectionString: string }).connectionString });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM "List" WHERE id = $1 FOR NO KEY UPDATE', [target.id]);
    const move = team.as.member.post(`/api/cards/${team.cards[0].id}/move`, { listId: target.id, position: 0 });
    // The move has read that the board has no webhook and waits for the list.
    await waitForLockWait(holder);
    const updated = await holder.query('UPDATE "WebhookEndpoint" SET "boardId" = $1 WHERE "boardId" = $2', [team.board.id, elsewhere.id]);
    expect(updated.rowCount).toBe(1);
    await holder.query('COMMIT');
    expectStatus(await move, 200);
  } finally {
    await holder.end();
  }
  const events = await t.db.prisma.webhookEvent.findMany({ where: { boardId: team.board.id, type: 'card.moved' } });
  expect(events).toHaveLength(1);
  expect(JSON.parse(events[0]!.body)).toMatchObject({ type: 'card.moved', data: { type: 'card.moved', data: { cardId: team.cards[0].id, listId: target.id } } });
  const moved = await t.db.prisma.activity.findMany({ where: { boardId: team.board.id, type: 'card.moved' } });
  expect(moved).toHaveLength(1);
});

/** Until another backend waits for a lock (the move's statement). */
async function waitForLockWait(client: pg.Client) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the move never waited for the lock');
}
