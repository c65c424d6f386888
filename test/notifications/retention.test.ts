import { describe, expect, it } from 'vitest';
import { pruneNotifications } from '../../src/notifications/notify/prune-notifications.js';
import { makeBoard, makeUser } from '../factories.js';
import { useTestApp, waitUntil } from '../helper.js';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

describe('notification retention (NOTIFY_RETENTION)', () => {
  const t = useTestApp();

  it('deletes read notifications older than the retention, and keeps unread, newer and still-to-be-mailed ones', async () => {
    const ada = await makeUser(t.db);
    const board = await makeBoard(t.db, ada.id);
    const row = (key: string, createdDaysAgo: number, readDaysAgo: number | null, mail: 'pending' | 'mailed' | 'skipped') => ({
      userId: ada.id,
      key,
      kind: 'assigned' as const,
      boardId: board.id,
      text: key,
      mail,
      createdAt: daysAgo(createdDaysAgo),
      readAt: readDaysAgo === null ? null : daysAgo(readDaysAgo),
    });
    await t.db.prisma.notification.createMany({
      data: [
        row('old-read-mailed', 31, 30, 'mailed'),
        row('old-read-skipped', 40, 1, 'skipped'),
        row('old-unread', 60, null, 'mailed'),
        row('old-read-pending', 31, 30, 'pending'),
        row('new-read', 29, 1, 'mailed'),
      ],
    });
    const pruned = await pruneNotifications({ db: t.db.prisma, retentionMs: 30 * DAY });
    expect(pruned.notifications).toBe(2);
    const left = (await t.db.prisma.notification.findMany({ where: { userId: ada.id }, select: { key: true }, orderBy: { key: 'asc' } })).map((n) => n.key);
    expect(left).toEqual(['new-read', 'old-read-pending', 'old-unread']);
  });

  it('deletes unread ones too when their board is no longer theirs, or when they are four retentions old', async () => {
    const [ada, bob] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const kept = await makeBoard(t.db, ada.id);
    const left = await makeBoard(t.db, bob.id, [{ userId: ada.id, role: 'member' }]);
    const unread = (key: string, boardId: number, createdDaysAgo: number) => ({
      userId: ada.id, key, kind: 'mentioned' as const, boardId, text: key, mail: 'mailed' as const, createdAt: daysAgo(createdDaysAgo), readAt: null,
    });
    await t.db.prisma.notification.createMany({
      data: [
        unread('member-old', kept.id, 60),
        unread('member-older-than-the-cap', kept.id, 121),
        unread('left-old', left.id, 60),
        unread('left-new', left.id, 10),
        unread('deleted-board-old', 999_999, 60),
      ],
    });
    await t.db.prisma.boardMember.delete({ where: { boardId_userId: { boardId: left.id, userId: ada.id } } });
    const pruned = await pruneNotifications({ db: t.db.prisma, retentionMs: 30 * DAY });
    expect(pruned.notifications).toBe(3);
    const rest = (await t.db.prisma.notification.findMany({ where: { userId: ada.id }, select: { key: true }, orderBy: { key: 'asc' } })).map((n) => n.key);
    expect(rest).toEqual(['left-new', 'member-old']);
  });

  it("deletes unsubscribe links older than the retention except each person's newest (the link in their latest mail keeps working)", async () => {
    const [ada, bob, cy] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const link = (userId: number, tokenHash: string, createdDaysAgo: number) => ({ userId, tokenHash: tokenHash.padEnd(64, '0'), createdAt: daysAgo(createdDaysAgo) });
    await t.db.prisma.unsubscribeLink.createMany({
      data: [
        link(ada.id, 'a1', 50),
        link(ada.id, 'a2', 40),
        link(ada.id, 'a3', 1),
        // Bob's only link is old: it is his newest, kept.
        link(bob.id, 'b1', 400),
        // Cy's two links are both old: the newer stays.
        link(cy.id, 'c1', 90),
        link(cy.id, 'c2', 45),
      ],
    });
    const pruned = await pruneNotifications({ db: t.db.prisma, retentionMs: 30 * DAY });
    expect(pruned.unsubscribeLinks).toBe(3);
    const left = (await t.db.prisma.unsubscribeLink.findMany({ where: { userId: { in: [ada.id, bob.id, cy.id] } }, select: { tokenHash: true } })).map((l) => l.tokenHash.slice(0, 2)).sort();
    expect(left).toEqual(['a3', 'b1', 'c2']);
  });

  it('runs when the server starts (and hourly), with the default of 90 days', async () => {
    expect(t.config.NOTIFY_RETENTION).toBe(90 * DAY);
    const ada = await makeUser(t.db);
    await t.db.prisma.notification.createMany({
      data: [
        { userId: ada.id, key: 'at-start-old', kind: 'watched', boardId: 1, text: 'x', mail: 'mailed', createdAt: daysAgo(91), readAt: daysAgo(80) },
        { userId: ada.id, key: 'at-start-new', kind: 'watched', boardId: 1, text: 'x', mail: 'mailed', createdAt: daysAgo(89), readAt: daysAgo(80) },
      ],
    });
    await t.app.ready();
    await waitUntil(async () => (await t.db.prisma.notification.count({ where: { key: 'at-start-old' } })) === 0);
    expect(await t.db.prisma.notification.count({ where: { key: 'at-start-new' } })).toBe(1);
  });

  it('is a setting of at least a day', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({ NOTIFY_RETENTION: '12h' })).toThrow(/NOTIFY_RETENTION: must be at least 1d/);
    expect(loadConfig({ NOTIFY_RETENTION: '7d' }).NOTIFY_RETENTION).toBe(7 * DAY);
  });
});
