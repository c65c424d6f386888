import pg from 'pg';
import { expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { buildTestApp } from '../helper.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A change's transaction holds an activity id below one a look saw committed, and is still open
// seconds later: the cursor must not pass it (it would never be read). Its xid can be above the
// look's snapshot's xmax (the last finished xid + 1), so the cursor is bounded by the looks' own
// xids instead. Found by review: with the xmax bound, Bob was never told.
it.runIf(onPostgres)('never passes an activity whose transaction is still open, however long, and reads it once it commits (needs TEST_DATABASE_URL)', async () => {
  const t = await buildTestApp({ RATE_LIMIT_MAX: '100000' });
  const url = (t.db.pool!.options as { connectionString: string }).connectionString;
  const early = new pg.Client({ connectionString: url });
  const held = new pg.Client({ connectionString: url });
  try {
    await t.app.ready();
    const { notifier } = t.app.notifications;
    await notifier.stop();
    const ada = await makeUser(t.db);
    const bob = await makeUser(t.db);
    const board = await makeBoard(t.db, ada.id, [{ userId: bob.id, role: 'member' }]);
    const list = await t.db.prisma.list.create({ data: { boardId: board.id, name: 'To do', position: 0 } });
    const card = await t.db.prisma.card.create({ data: { boardId: board.id, listId: list.id, title: 'Held', position: 0 } });
    const insert = (client: pg.Client, type: string, data: object) =>
      client.query<{ id: number }>(`INSERT INTO "Activity" ("boardId", type, "actorUserId", "actorName", data) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id`, [board.id, type, ada.id, ada.name, JSON.stringify(data)]);
    await Promise.all([early.connect(), held.connect()]);
    // The early transaction takes its xid first, the held one after it; the early one commits a
    // higher activity id while the held one stays open.
    await early.query('BEGIN');
    await early.query('SELECT pg_current_xact_id()');
    await held.query('BEGIN');
    await held.query('SELECT pg_current_xact_id()');
    const m = (await insert(held, 'card.member_added', { cardId: card.id, card: { title: card.title, boardId: board.id }, userId: bob.id })).rows[0]!.id;
    const M = (await insert(early, 'card.updated', { cardId: card.id, card: { title: card.title, boardId: board.id } })).rows[0]!.id;
    await early.query('COMMIT');
    expect(M).toBeGreaterThan(m);

    const cursor = async () => (await t.db.prisma.$queryRaw<{ activityId: number }[]>`SELECT "activityId" FROM "NotifierCursor" WHERE id = 1`)[0]!.activityId;
    // Looks for well past the settling wait (5 s), as the poll would.
    const until = Date.now() + 8_000;
    while (Date.now() < until) {
      await notifier.scan();
      await sleep(250);
    }
    expect(await cursor()).toBeLessThan(m);
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id } })).toBe(0);

    await held.query('COMMIT');
    await notifier.scan();
    expect(await t.db.prisma.notification.findMany({ where: { userId: bob.id }, select: { key: true, kind: true } })).toEqual([{ key: `a:${m}`, kind: 'assigned' }]);
    await notifier.scan();
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id } })).toBe(1);
  } finally {
    await held.query('ROLLBACK').catch(() => {});
    await Promise.all([early.end().catch(() => {}), held.end().catch(() => {})]);
    await t.close();
  }
}, 60_000);
