import pg from 'pg';
import { expect, it } from 'vitest';
import { makeBoard, makeUser } from '../factories.js';
import { buildTestApp } from '../helper.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

// Another process is mailing a person's older notifications (it holds them, FOR UPDATE) when a new
// one for them commits: this process finds the person due by the older rows, locks only the new one
// (SKIP LOCKED), and must leave it for its own batch rather than mail it alone at once. Found by review.
it.runIf(onPostgres)('leaves a notification written while another process mails its person to its own batch (needs TEST_DATABASE_URL)', async () => {
  const t = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'T <t@example.test>', MAIL_POLL_MS: '600000', NOTIFY_MAIL_BATCH_SECONDS: '300' });
  const other = new pg.Client({ connectionString: (t.db.pool!.options as { connectionString: string }).connectionString });
  try {
    await t.app.ready();
    await t.app.notifications.notifier.stop();
    const owner = await makeUser(t.db);
    const ada = await makeUser(t.db);
    const board = await makeBoard(t.db, owner.id, [{ userId: ada.id, role: 'member' }]);
    await t.db.prisma.notification.create({ data: { userId: ada.id, key: 'old', kind: 'assigned', boardId: board.id, text: 'OLD one', mail: 'pending', createdAt: new Date(Date.now() - 600_000) } });
    await other.connect();
    await other.query('BEGIN');
    await other.query(`SELECT id FROM "Notification" WHERE "userId" = $1 AND mail = 'pending' FOR UPDATE`, [ada.id]);
    await t.db.prisma.notification.create({ data: { userId: ada.id, key: 'new', kind: 'assigned', boardId: board.id, text: 'NEW one', mail: 'pending' } });
    expect(await t.app.notifications.notifier.mailBatches()).toBe(0);
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: ada.email } })).toBe(0);
    expect((await t.db.prisma.notification.findFirst({ where: { userId: ada.id, key: 'new' } }))!.mail).toBe('pending');
    await other.query('ROLLBACK');
    // Once the other process is gone, the older one makes the person due again, and both go in one mail.
    expect(await t.app.notifications.notifier.mailBatches()).toBe(1);
    const mail = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { recipient: ada.email } });
    expect(mail.text).toMatch(/OLD one[\s\S]*NEW one/);
  } finally {
    await other.end().catch(() => {});
    await t.close();
  }
});
