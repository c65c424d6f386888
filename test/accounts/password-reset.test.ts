import { describe, expect, it } from 'vitest';
import { resetsIdle } from '../../src/accounts/join/reset-queue.js';
import { runCommand } from '../../src/cli/run-command.js';
import { loginCookie, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { linkIn, useLoopbackSmtp } from '../smtp-server.js';

/** #34 item 3: forgot password (POST /auth/password-reset), its mailed link, and the admin's link without SMTP. */
const tag = () => Math.random().toString(36).slice(2, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('with SMTP', { timeout: 90_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test' }));
  const ask = (email: string) => t.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email } });

  it('mails a single-use link that sets a new password and ends every other session', async () => {
    const user = await makeUser(t.db, { name: 'Katherine Johnson' });
    const other = await loginCookie(t.app, user.email, user.password);
    const res = await ask(user.email.toUpperCase());
    expect(res.statusCode, res.body).toBe(202);
    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Set a new password for Taskboard');
    const link = linkIn(mail.text)!;
    expect(link).toMatch(/^https:\/\/tb\.example\.test\/join\/set_[0-9A-Za-z]{46}$/);
    expect(mail.html).toContain(`href="${link}"`);
    const token = link.split('/').pop()!;

    const looked = await t.app.inject({ method: 'GET', url: `/auth/join/${token}` });
    expect(looked.json().link).toMatchObject({ kind: 'account', email: user.email });
    const used = await t.app.inject({ method: 'POST', url: `/auth/join/${token}`, payload: { name: 'Katherine Johnson', password: 'a fresh new password' } });
    expect(used.statusCode, used.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: other })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: 'a fresh new password' } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: user.password } })).statusCode).toBe(401);
    // Single use.
    expect((await t.app.inject({ method: 'POST', url: `/auth/join/${token}`, payload: { name: 'X', password: 'yet another password' } })).statusCode).toBe(404);
  });

  it('answers an unknown, blocked or known address alike, and mails only the active account', async () => {
    const user = await makeUser(t.db);
    const blocked = await makeUser(t.db);
    await t.db.prisma.user.update({ where: { id: blocked.id }, data: { status: 'blocked' } });
    const unknown = `nobody-${tag()}@example.test`;
    const answers = await Promise.all([ask(user.email), ask(unknown), ask(blocked.email)]);
    for (const a of answers) expect({ status: a.statusCode, body: a.json() }).toEqual({ status: 202, body: answers[0]!.json() });
    // The work runs after the answer (#44 item 4): wait for it, then for the one mail it sent.
    await resetsIdle(t.app);
    await smtp.waitFor(user.email);
    await sleep(1000);
    expect(smtp.to(unknown)).toHaveLength(0);
    expect(smtp.to(blocked.email)).toHaveLength(0);
  });

  it('mails an address at most 3 times an hour, even asked for at once, with the same answer after', async () => {
    const user = await makeUser(t.db);
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(user.email)));
    for (const a of answers) expect(a.statusCode).toBe(202);
    await resetsIdle(t.app);
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: user.email, kind: 'password-reset' } })).toBe(3);
    expect((await ask(user.email)).statusCode).toBe(202);
    await resetsIdle(t.app);
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: user.email, kind: 'password-reset' } })).toBe(3);
    // Only the latest link works: each new one replaces the one before.
    await smtp.waitFor(user.email);
  });
});

describe('without SMTP', () => {
  const t = useTestApp({ PUBLIC_BASE_URL: 'https://tb.example.test' });

  it('says to ask a site admin, who prints a link with npm run admin -- user reset-link', async () => {
    const user = await makeUser(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: user.email } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/sends no mail; ask a site administrator/);
    expect((await t.app.inject({ method: 'GET', url: '/auth/session' })).json()).toMatchObject({ user: null, mail: false });

    const printed = await runCommand(['user', 'reset-link', '--email', user.email], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(printed).toEqual({ exitCode: 0, body: { url: expect.stringMatching(/^https:\/\/tb\.example\.test\/join\/set_[0-9A-Za-z]{46}$/), expiresAt: expect.any(String) } });
    const token = (printed.body.url as string).split('/').pop()!;
    const used = await t.app.inject({ method: 'POST', url: `/auth/join/${token}`, payload: { name: 'Reset', password: 'a fresh new password' } });
    expect(used.statusCode, used.body).toBe(201);
    expect((await runCommand(['user', 'reset-link', '--email', `nobody-${tag()}@example.test`], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects })).exitCode).toBe(1);
  });
});
