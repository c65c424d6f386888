import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp, waitUntil } from '../helper.js';
import { LoopbackSmtp } from '../smtp-server.js';

/**
 * Notifications (#34 item 5) against a real SMTP server on loopback: what board changes tell
 * people, batched into one mail per person, the unsubscribe link, settings, watching, the
 * due-date sweep, and that nothing is told twice or to the wrong person.
 */
const smtp = new LoopbackSmtp();
beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = waitUntil;
const tag = () => Math.random().toString(36).slice(2, 8);
/** A header of the received mail, unfolded (nodemailer folds long ones). */
const headerOf = (mail: { decoded: string }, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(mail.decoded.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim() ?? null;

describe('notifications', { timeout: 90_000 }, () => {
  // A batch goes 2 s after a person's first notification: both changes below land in it.
  const t = useTestApp(() => smtp.env({ NOTIFY_MAIL_BATCH_SECONDS: '2', RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: 'http://tb.example.test' }));

  async function setUp() {
    await t.app.ready();
    const ada = await makeUser(t.db, { name: `Ada ${tag()}` });
    const bob = await makeUser(t.db, { name: `Bob${tag()} Marley`, email: `bob-${tag()}@example.test` });
    const board = await makeBoard(t.db, ada.id, [{ userId: bob.id, role: 'member' }]);
    const adaApi = client(t.app, (await makeKey(t.db, ada.id)).auth);
    const bobApi = client(t.app, (await makeKey(t.db, bob.id)).auth);
    const list = (await adaApi.post(`/api/boards/${board.id}/lists`, { name: 'To do' })).json();
    const card = (await adaApi.post(`/api/lists/${list.id}/cards`, { title: 'Fix the login page' })).json();
    return { ada, bob, board, adaApi, bobApi, card };
  }

  const mentionOf = (user: { email: string }) => `@${user.email.split('@')[0]}`;

  it('mails an assignment and a mention in ONE mail with working links and List-Unsubscribe; nothing to the actor', async () => {
    const { ada, bob, board, adaApi, bobApi, card } = await setUp();
    expect((await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`)).statusCode).toBeLessThan(300);
    expect((await adaApi.post(`/api/cards/${card.id}/comments`, { text: `${mentionOf(bob)} can you look at this?` })).statusCode).toBe(201);

    const mail = await smtp.waitFor(bob.email);
    expect(mail.subject).toBe('2 new notifications on Taskboard');
    expect(mail.text).toContain(`${ada.name} assigned you to “Fix the login page”`);
    expect(mail.text).toContain(`${ada.name} mentioned you on “Fix the login page”: “${mentionOf(bob)} can you look at this?”`);
    const cardLink = `http://tb.example.test/boards/${board.id}?card=${card.id}`;
    expect(mail.text.split(cardLink).length - 1).toBe(2);
    expect(mail.html).toContain(`href="http://tb.example.test/boards/${board.id}?card=${card.id}"`);
    expect(headerOf(mail, 'List-Unsubscribe')).toMatch(/^<http:\/\/tb\.example\.test\/unsubscribe\/uns_[0-9a-f]{40}>$/);
    expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // The links lead somewhere: the board page (served to anyone; it asks to sign in) and, for Bob, the card.
    expect((await t.app.inject({ method: 'GET', url: `/boards/${board.id}?card=${card.id}` })).statusCode).toBe(200);
    expect((await bobApi.get(`/api/cards/${card.id}`)).statusCode).toBe(200);

    // One mail, never a second for the same changes; the actor got none.
    await sleep(3000);
    expect(smtp.to(bob.email)).toHaveLength(1);
    expect(smtp.to(ada.email)).toHaveLength(0);

    // In the app: both, unread, newest first; read one, then all.
    const page = (await bobApi.get('/api/notifications')).json();
    expect(page.unread).toBe(2);
    expect(page.notifications.map((n: { kind: string }) => n.kind)).toEqual(['mentioned', 'assigned']);
    expect(page.notifications[0]).toMatchObject({ boardId: board.id, cardId: card.id, actorName: ada.name, read: false });
    expect((await adaApi.get('/api/notifications')).json().notifications).toEqual([]);
    expect((await adaApi.post(`/api/notifications/${page.notifications[0].id}/read`)).statusCode).toBe(404);
    expect((await bobApi.post(`/api/notifications/${page.notifications[0].id}/read`)).json().read).toBe(true);
    expect((await bobApi.get('/api/notifications/unread-count')).json()).toEqual({ unread: 1 });
    expect((await bobApi.post('/api/notifications/read-all')).json()).toEqual({ marked: 1 });
    expect((await bobApi.get('/api/notifications/unread-count')).json()).toEqual({ unread: 0 });
  });

  it('tells the people a card is created with that they are assigned (a card made with memberIds records no card.member_added)', async () => {
    const { ada, bob, board, adaApi } = await setUp();
    const list = (await adaApi.post(`/api/boards/${board.id}/lists`, { name: 'Later' })).json();
    const res = await adaApi.post(`/api/lists/${list.id}/cards`, { title: 'For Bob', memberIds: [bob.id, ada.id] });
    expect(res.statusCode).toBe(201);
    await until(async () => {
      await t.app.notifications.notifier.scan();
      return (await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'assigned' } })) === 1;
    });
    // Never the actor, though they assigned themselves too.
    expect(await t.db.prisma.notification.count({ where: { userId: ada.id } })).toBe(0);
  });

  it('unsubscribes with the mailed link without signing in; later notifications are listed, not mailed', async () => {
    const { bob, adaApi, card } = await setUp();
    await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
    const mail = await smtp.waitFor(bob.email);
    const url = /^<([^>]+)>$/.exec(headerOf(mail, 'List-Unsubscribe') ?? '')![1]!;
    const path = new URL(url).pathname;
    expect(mail.text).toContain(url);
    // Stored as its SHA-256 only, as every token here.
    const token = path.split('/').pop()!;
    expect(await t.db.prisma.unsubscribeLink.count({ where: { tokenHash: token } })).toBe(0);
    expect(await t.db.prisma.unsubscribeLink.count({ where: { tokenHash: createHash('sha256').update(token).digest('hex'), userId: bob.id } })).toBe(1);
    // The page the link opens is served without a session…
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    // …and a mail client's RFC 8058 one-click POST (form-encoded, no cookie, no Origin) unsubscribes.
    const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unsubscribed: true, email: bob.email });
    expect((await t.app.inject({ method: 'POST', url: '/unsubscribe/uns_0000' })).statusCode).toBe(404);

    await adaApi.post(`/api/cards/${card.id}/comments`, { text: `${mentionOf(bob)} again` });
    await until(async () => (await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'mentioned', mail: 'skipped' } })) === 1);
    expect(smtp.to(bob.email)).toHaveLength(1);
  });

  it('mails only the kinds a person chose (account settings), and tells watchers of changes but never of their own', async () => {
    const { ada, bob, board, adaApi, bobApi, card } = await setUp();
    const { loginCookie } = await import('../factories.js');
    const bobSession = client(t.app, await loginCookie(t.app, bob.email, bob.password));
    expect((await bobSession.get('/account/notifications')).json()).toEqual({ assigned: true, mentioned: true, due: true, watched: true });
    expect((await bobSession.put('/account/notifications', { assigned: false })).json()).toEqual({ assigned: false, mentioned: true, due: true, watched: true });
    expect((await bobSession.put('/account/notifications', { nonsense: true })).statusCode).toBe(400);

    expect((await bobApi.put(`/api/cards/${card.id}/watch`)).json()).toEqual({ watching: true });
    expect((await bobApi.get(`/api/cards/${card.id}/watch`)).json()).toEqual({ watching: true });
    // Bob's own change tells Bob nothing.
    await bobApi.patch(`/api/cards/${card.id}`, { description: 'mine' });
    await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
    await adaApi.patch(`/api/cards/${card.id}`, { title: 'Fix the sign-in page' });

    const mail = await smtp.waitFor(bob.email);
    expect(mail.text).toContain(`${ada.name} edited “Fix the sign-in page”`);
    expect(mail.text).not.toContain('assigned you');
    const kinds = (await bobApi.get('/api/notifications')).json().notifications.map((n: { kind: string; text: string }) => n.kind);
    // Listed in the app all the same: the assignment (not mailed) and the edit; Bob's own edit is not there.
    expect(kinds).toEqual(['watched', 'assigned']);
    expect((await bobApi.del(`/api/cards/${card.id}/watch`)).json()).toEqual({ watching: false });
    // Out of reach is not found.
    const other = await makeBoard(t.db, ada.id);
    const otherList = (await adaApi.post(`/api/boards/${other.id}/lists`, { name: 'x' })).json();
    const hidden = (await adaApi.post(`/api/lists/${otherList.id}/cards`, { title: 'secret' })).json();
    expect((await bobApi.put(`/api/cards/${hidden.id}/watch`)).statusCode).toBe(404);
    expect(board.id).not.toBe(other.id);
  });

  it('tells only people who can still see the board', async () => {
    const { bob, board, adaApi, card } = await setUp();
    const bobApi = client(t.app, (await makeKey(t.db, bob.id)).auth);
    await bobApi.put(`/api/cards/${card.id}/watch`);
    expect((await adaApi.del(`/api/boards/${board.id}/members/${bob.id}`)).statusCode).toBeLessThan(300);
    await adaApi.post(`/api/cards/${card.id}/comments`, { text: `${mentionOf(bob)} are you there?` });
    await adaApi.patch(`/api/cards/${card.id}`, { title: 'Gone' });
    await t.app.notifications.notifier.scan();
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id } })).toBe(0);
  });

  it('cuts a long title in a due-date notification before an emoji, never through it', async () => {
    const { bob, adaApi, card } = await setUp();
    await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
    // The emoji's two UTF-16 units at 118 and 119: a cut at 119 would keep half of it ("�").
    await adaApi.patch(`/api/cards/${card.id}`, { title: `${'a'.repeat(118)}😀 and more`, dueAt: new Date(Date.now() + 3_600_000).toISOString() });
    await t.app.notifications.notifier.sweepDue();
    const [row] = await t.db.prisma.notification.findMany({ where: { userId: bob.id, kind: 'due' } });
    expect(row!.text.startsWith(`“${'a'.repeat(118)}…” is due `)).toBe(true);
  });

  it('sweeps due dates once per due date, and turns each change into notifications once even when read again', async () => {
    const { bob, adaApi, card } = await setUp();
    const bobApi = client(t.app, (await makeKey(t.db, bob.id)).auth);
    await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
    const due = new Date(Date.now() + 12 * 3_600_000);
    await adaApi.patch(`/api/cards/${card.id}`, { dueAt: due.toISOString() });
    const { notifier } = t.app.notifications;
    await notifier.sweepDue();
    await notifier.sweepDue();
    const dueRows = await t.db.prisma.notification.findMany({ where: { userId: bob.id, kind: 'due' } });
    expect(dueRows).toHaveLength(1);
    expect(dueRows[0]!.text).toMatch(/^“Fix the login page” is due \w{3}, \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/);
    // A later due date is a new one: told again, once.
    await adaApi.patch(`/api/cards/${card.id}`, { dueAt: new Date(due.getTime() + 3_600_000).toISOString() });
    await notifier.sweepDue();
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'due' } })).toBe(2);

    // Everything read again from the start (a crash before the cursor's commit, another process): nothing twice.
    await until(async () => (await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'assigned' } })) === 1);
    const before = await t.db.prisma.notification.count();
    await t.db.prisma.$executeRaw`UPDATE "NotifierCursor" SET "activityId" = 0`;
    await t.db.prisma.$executeRaw`DELETE FROM "NotifiedActivity"`;
    await notifier.scan();
    expect(await t.db.prisma.notification.count()).toBe(before);
    expect((await bobApi.get('/api/notifications')).json().notifications.length).toBe(3);
  });

  it('tells each watcher of the cards they watch only, when one look reads changes of several cards (watchers read together)', async () => {
    const { ada, bob, board, adaApi, bobApi, card } = await setUp();
    const cyd = await makeUser(t.db, { name: `Cyd ${tag()}` });
    expect((await adaApi.post(`/api/boards/${board.id}/members`, { email: cyd.email, role: 'member' })).statusCode).toBe(201);
    const cydApi = client(t.app, (await makeKey(t.db, cyd.id)).auth);
    const other = (await adaApi.post(`/api/lists/${card.listId}/cards`, { title: 'Other card' })).json();
    const quiet = (await adaApi.post(`/api/lists/${card.listId}/cards`, { title: 'Nobody watches this' })).json();
    for (const [api, watched] of [[bobApi, card], [cydApi, other], [cydApi, card]] as const) {
      expect((await api.put(`/api/cards/${watched.id}/watch`)).json()).toEqual({ watching: true });
    }
    const { notifier } = t.app.notifications;
    await notifier.stop();
    try {
      await adaApi.patch(`/api/cards/${card.id}`, { title: 'Watched by two' });
      await adaApi.patch(`/api/cards/${other.id}`, { title: 'Watched by Cyd' });
      await adaApi.patch(`/api/cards/${quiet.id}`, { title: 'Still unwatched' });
      await notifier.scan();
    } finally {
      notifier.start();
    }
    const told = async (userId: number) =>
      (await t.db.prisma.notification.findMany({ where: { userId, kind: 'watched' }, select: { cardId: true } })).map((n) => n.cardId).sort((a, b) => a! - b!);
    expect(await told(bob.id)).toEqual([card.id]);
    expect(await told(cyd.id)).toEqual([card.id, other.id].sort((a, b) => a - b));
    expect(await told(ada.id)).toEqual([]);
  });

  it('passes the changes it read with its cursor seconds later, once the database says no older transaction is running (not after 120 s)', async () => {
    const { bob, adaApi, card } = await setUp();
    const { notifier } = t.app.notifications;
    await notifier.stop();
    try {
      await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
      const [latest] = await t.db.prisma.activity.findMany({ orderBy: { id: 'desc' }, take: 1, select: { id: true } });
      const seenAt = Date.now();
      await notifier.scan();
      expect(await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'assigned' } })).toBe(1);
      const cursor = async () => (await t.db.prisma.$queryRaw<{ activityId: number }[]>`SELECT "activityId" FROM "NotifierCursor" WHERE id = 1`)[0]!.activityId;
      // Seen, but not yet passed: remembered one by one above the cursor.
      expect(await cursor()).toBeLessThan(latest!.id);
      // Five seconds at least; longer while another transaction on the server (another test's) holds the xmin back.
      await until(async () => {
        await notifier.scan();
        return (await cursor()) >= latest!.id;
      }, 80_000);
      expect(Date.now() - seenAt).toBeGreaterThanOrEqual(5_000);
      // Passed, and read again from it: nothing is told twice.
      await notifier.scan();
      expect(await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'assigned' } })).toBe(1);
    } finally {
      notifier.start();
    }
  });

  it('finds changes its process was not told of (the post-commit hook missed: a crash, another process, the CLI)', async () => {
    const { bob, adaApi, card } = await setUp();
    const { notifier } = t.app.notifications;
    await notifier.stop();
    await adaApi.put(`/api/cards/${card.id}/members/${bob.id}`);
    await sleep(500);
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id } })).toBe(0);
    notifier.start();
    await until(async () => (await t.db.prisma.notification.count({ where: { userId: bob.id, kind: 'assigned' } })) === 1);
    await smtp.waitFor(bob.email);
  });
});

describe('notifications on a server without SMTP', () => {
  const t = useTestApp({ RATE_LIMIT_MAX: '100000' });
  it('are listed in the app and never queued as mail', async () => {
    await t.app.ready();
    const ada = await makeUser(t.db);
    const bob = await makeUser(t.db);
    const board = await makeBoard(t.db, ada.id, [{ userId: bob.id, role: 'observer' }]);
    const adaApi: Client = client(t.app, (await makeKey(t.db, ada.id)).auth);
    const list = (await adaApi.post(`/api/boards/${board.id}/lists`, { name: 'x' })).json();
    const card = (await adaApi.post(`/api/lists/${list.id}/cards`, { title: 'y' })).json();
    await adaApi.post(`/api/cards/${card.id}/comments`, { text: `hi @${bob.email.split('@')[0]}` });
    await until(async () => (await t.db.prisma.notification.count({ where: { userId: bob.id } })) === 1);
    expect(await t.db.prisma.notification.count({ where: { mail: 'pending' } })).toBe(0);
    expect(await t.db.prisma.mailMessage.count()).toBe(0);
  });
});
