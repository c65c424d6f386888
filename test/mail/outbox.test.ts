import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMail } from '../../src/mail/compose.js';
import { recordMail } from '../../src/mail/record-mail.js';
import { loginCookie, makeUser } from '../factories.js';
import { buildTestApp, useTestApp, waitUntil } from '../helper.js';
import { LoopbackSmtp, linkIn } from '../smtp-server.js';

const smtp = new LoopbackSmtp();
beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

const tag = () => Math.random().toString(36).slice(2, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const until = waitUntil;

describe('the mail outbox', { timeout: 90_000 }, () => {
  const t = useTestApp(() => smtp.env({ MAIL_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms' }));

  const send = async (to: string, key = `test:${tag()}`) => {
    const body = composeMail({ greeting: 'Hello,', paragraphs: ['Open this to go on.'], action: { label: 'Open it', url: `https://tb.example.test/join/inv_${key}` } });
    await t.app.ready();
    await t.db.prisma.$transaction((tx) => recordMail(tx, { key, kind: 'test', to, subject: `Test ${key}`, ...body }));
    t.app.mail.wake();
    return key;
  };

  it('sends a recorded mail with both bodies and the link spelled out, and empties its bodies once sent', async () => {
    const to = `ada-${tag()}@example.test`;
    const key = await send(to);
    const mail = await smtp.waitFor(to);
    expect(mail.to).toEqual([to]);
    expect(mail.from).toBe('taskboard@example.test');
    expect(mail.subject).toBe(`Test ${key}`);
    expect(linkIn(mail.text)).toBe(`https://tb.example.test/join/inv_${key}`);
    expect(mail.html).toContain(`href="https://tb.example.test/join/inv_${key}"`);
    expect(mail.html).toContain('Taskboard');
    await until(async () => (await t.db.prisma.mailMessage.findUnique({ where: { key } }))?.status === 'sent');
    const row = await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { key } });
    expect(row).toMatchObject({ attempts: 1, text: null, html: null, lastError: null });
    expect(mail.messageId).toBe(row.messageId);
  });

  it('records a key once: the same change recorded again sends one mail', async () => {
    const to = `once-${tag()}@example.test`;
    const key = await send(to);
    await send(to, key);
    await smtp.waitFor(to);
    await sleep(1500);
    expect(smtp.to(to)).toHaveLength(1);
  });

  it('writes no mail for a change that rolled back', async () => {
    const to = `rollback-${tag()}@example.test`;
    await t.app.ready();
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await recordMail(tx, { key: `test:${tag()}`, kind: 'test', to, subject: 'never', text: 'x', html: 'x' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    t.app.mail.wake();
    await sleep(1000);
    expect(smtp.to(to)).toHaveLength(0);
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: to } })).toBe(0);
  });

  it('a permanent refusal (550) fails the mail at once, says why, and is not retried', async () => {
    const to = `nobody-${tag()}@example.test`;
    smtp.refuse.set(to, { code: 550, message: 'No such user here' });
    const key = await send(to);
    await until(async () => (await t.db.prisma.mailMessage.findUnique({ where: { key } }))?.status === 'failed');
    await sleep(1500); // several retry delays: none is made
    const row = await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { key } });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/550/);
    expect(row.lastError).toMatch(/No such user here/);
    expect(row.text).toBeNull();
    expect(smtp.to(to)).toHaveLength(0);
  });

  it('a temporary refusal (451) is retried until it goes through', async () => {
    const to = `busy-${tag()}@example.test`;
    smtp.refuse.set(to, { code: 451, message: 'Try again later' });
    const key = await send(to);
    await until(async () => ((await t.db.prisma.mailMessage.findUnique({ where: { key } }))?.attempts ?? 0) >= 2);
    const waiting = await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { key } });
    expect(waiting.status).toBe('pending');
    expect(waiting.lastError).toMatch(/451/);
    smtp.refuse.delete(to);
    await smtp.waitFor(to);
    await until(async () => (await t.db.prisma.mailMessage.findUnique({ where: { key } }))?.status === 'sent');
    expect(smtp.to(to)).toHaveLength(1);
  });

  it('an SMTP outage loses nothing and, once the server is back, sends each mail once', async () => {
    await smtp.stop();
    const to = Array.from({ length: 5 }, () => `outage-${tag()}@example.test`);
    const keys: string[] = [];
    for (const address of to) keys.push(await send(address));
    // Every mail has been tried and failed while the server was away.
    await until(async () => (await t.db.prisma.mailMessage.count({ where: { key: { in: keys }, attempts: { gte: 1 }, status: 'pending' } })) === keys.length);
    const failed = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { key: keys[0] } });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    await smtp.start();
    for (const address of to) await smtp.waitFor(address);
    await until(async () => (await t.db.prisma.mailMessage.count({ where: { key: { in: keys }, status: 'sent' } })) === keys.length);
    await sleep(1500);
    for (const address of to) expect(smtp.to(address)).toHaveLength(1);
  });
});

describe('the delivery log for site admins', { timeout: 90_000 }, () => {
  const t = useTestApp(() => smtp.env());

  it('GET /admin/mail shows queued, sent and failed mail with why, never a body; others get 403', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const refused = `refused-${tag()}@example.test`;
    const fine = `fine-${tag()}@example.test`;
    smtp.refuse.set(refused, { code: 550, message: 'Mailbox unavailable' });
    await t.app.ready();
    await t.db.prisma.$transaction(async (tx) => {
      for (const to of [refused, fine]) await recordMail(tx, { key: `log:${to}`, kind: 'test', to, subject: `To ${to}`, text: 'secret link', html: 'secret link' });
    });
    t.app.mail.wake();
    await until(async () => (await t.db.prisma.mailMessage.count({ where: { key: { in: [`log:${refused}`, `log:${fine}`] }, status: { not: 'pending' } } })) === 2);
    const adminCookie = await loginCookie(t.app, admin.email, admin.password);
    const log = await t.app.inject({ method: 'GET', url: '/admin/mail', headers: adminCookie });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().mailEnabled).toBe(true);
    const byRecipient = Object.fromEntries(log.json().mail.map((m: { recipient: string }) => [m.recipient, m]));
    expect(byRecipient[refused]).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringMatching(/550.*Mailbox unavailable/) });
    expect(byRecipient[fine]).toMatchObject({ status: 'sent', lastError: null, sentAt: expect.any(String) });
    expect(log.body).not.toContain('secret link');
    const failedOnly = await t.app.inject({ method: 'GET', url: '/admin/mail?status=failed', headers: adminCookie });
    expect(failedOnly.json().mail.every((m: { status: string }) => m.status === 'failed')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/admin/mail', headers: await loginCookie(t.app, user.email, user.password) })).statusCode).toBe(403);
  });
});

describe('two processes on one database', { timeout: 90_000 }, () => {
  it('never send one mail twice', async () => {
    const first = await buildTestApp(smtp.env());
    const second = await buildTestApp(smtp.env(), { db: first.db });
    try {
      await Promise.all([first.app.ready(), second.app.ready()]);
      const to = Array.from({ length: 30 }, () => `pair-${tag()}@example.test`);
      await first.db.prisma.$transaction(async (tx) => {
        for (const address of to) await recordMail(tx, { key: `pair:${address}`, kind: 'test', to: address, subject: 'pair', text: 'x', html: '<p>x</p>' });
      });
      first.app.mail.wake();
      second.app.mail.wake();
      for (const address of to) await smtp.waitFor(address);
      await sleep(1500);
      for (const address of to) expect(smtp.to(address)).toHaveLength(1);
    } finally {
      await second.app.close();
      await first.close();
    }
  });
});
