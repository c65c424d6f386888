import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { linkIn, useLoopbackSmtp } from '../smtp-server.js';

/** #31 item 2: an account never holds an address it has not confirmed (PATCH /account, /account/email/confirm, the admin ways). */

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const tag = () => Math.random().toString(36).slice(2, 10);

describe('with SMTP: a new address is confirmed from that address', { timeout: 90_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test' }));
  const send = (method: Method, url: string, headers: Record<string, string>, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('the invitation hijack is refused: an address asked for but never confirmed is not the account\'s, so a board admin\'s invitation stays an invitation', async () => {
    const attacker = await makeUser(t.db);
    const boardAdmin = await makeUser(t.db);
    const board = await makeBoard(t.db, boardAdmin.id);
    const newHire = `newhire-${tag()}@example.test`;
    const squat = await send('PATCH', '/account', await loginCookie(t.app, attacker.email, attacker.password), { email: newHire, currentPassword: attacker.password });
    expect(squat.statusCode, squat.body).toBe(200);
    expect(squat.json().user.email).toBe(attacker.email);
    expect(squat.json().emailChange).toMatchObject({ email: newHire });
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: attacker.id } })).email).toBe(attacker.email);

    // The board admin invites the new hire as admin: an invitation (202), not the attacker added at once (201).
    const invited = await send('POST', `/api/boards/${board.id}/members`, await loginCookie(t.app, boardAdmin.email, boardAdmin.password), { email: newHire, role: 'admin' });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(await t.db.prisma.boardMember.findFirst({ where: { boardId: board.id, userId: attacker.id } })).toBeNull();
    // The confirmation went to the address asked for, which the attacker cannot read.
    const mail = await smtp.waitFor(newHire);
    expect(mail.to).toEqual([newHire]);
    expect(smtp.to(attacker.email)).toHaveLength(0);
  });

  it('mails a link to the new address; it works only for the account that asked; the address changes then, and the old one is told', async () => {
    const user = await makeUser(t.db, { name: 'Grace Hopper' });
    const other = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const address = `grace-${tag()}@example.test`;
    const asked = await send('PATCH', '/account', session, { email: address.toUpperCase(), currentPassword: user.password });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().emailChange.email).toBe(address);

    const mail = await smtp.waitFor(address);
    expect(mail.subject).toBe('Confirm your new e-mail address for Taskboard');
    expect(mail.text).toContain('The Taskboard account “Grace Hopper” (');
    const link = linkIn(mail.text)!;
    expect(link).toMatch(/^https:\/\/tb\.example\.test\/join\/eml_[0-9A-Za-z]{46}$/);
    expect(mail.html).toContain(`href="${link}"`);
    const token = link.split('/').pop()!;
    // Still the old address until confirmed.
    expect((await send('POST', '/auth/login', {}, { email: address, password: user.password })).statusCode).toBe(401);

    // Someone else opening the mail (signed in as another account) cannot confirm it.
    const stranger = await send('POST', '/account/email/confirm', await loginCookie(t.app, other.email, other.password), { token });
    expect(stranger.statusCode).toBe(404);
    expect((await send('POST', '/account/email/confirm', session, { token: 'eml_nonsense' })).statusCode).toBe(404);

    const confirmed = await send('POST', '/account/email/confirm', session, { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().user.email).toBe(address);
    expect((await send('POST', '/auth/login', {}, { email: address, password: user.password })).statusCode).toBe(200);
    expect((await send('POST', '/account/email/confirm', session, { token })).statusCode).toBe(404);

    const told = await smtp.waitFor(user.email);
    expect(told.subject).toBe('Your Taskboard e-mail address was changed');
    expect(told.text).toContain(address);
  });

  it('a newer request replaces the older link; an expired link is 410; an address taken meanwhile is 409', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const first = `first-${tag()}@example.test`;
    const second = `second-${tag()}@example.test`;
    await send('PATCH', '/account', session, { email: first, currentPassword: user.password });
    const firstToken = linkIn((await smtp.waitFor(first)).text)!.split('/').pop()!;
    await send('PATCH', '/account', session, { email: second, currentPassword: user.password });
    const secondToken = linkIn((await smtp.waitFor(second)).text)!.split('/').pop()!;
    expect((await send('POST', '/account/email/confirm', session, { token: firstToken })).statusCode).toBe(404);

    await t.db.prisma.emailChange.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await send('POST', '/account/email/confirm', session, { token: secondToken })).statusCode).toBe(410);
    await t.db.prisma.emailChange.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() + 3_600_000) } });
    await makeUser(t.db, { email: second });
    expect((await send('POST', '/account/email/confirm', session, { token: secondToken })).statusCode).toBe(409);
  });
});

describe('without SMTP: only a site admin changes an address', () => {
  const t = useTestApp();
  const send = (method: Method, url: string, headers: Record<string, string>, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('PATCH /account with a new address is 403 saying whom to ask, and changes nothing; a name still changes', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await send('PATCH', '/account', session, { email: `elsewhere-${tag()}@example.test`, currentPassword: user.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/sends no mail.*site administrator/);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
    const renamed = await send('PATCH', '/account', session, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ user: { name: 'Renamed', email: user.email }, emailChange: null });
  });

  it('a site admin changes it at once by the API or the CLI; anyone else gets 403; a taken address is 409', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const other = await makeUser(t.db);
    const adminSession = await loginCookie(t.app, admin.email, admin.password);
    const address = `moved-${tag()}@example.test`;
    expect((await send('PUT', `/admin/users/${user.id}/email`, await loginCookie(t.app, user.email, user.password), { email: address })).statusCode).toBe(403);
    expect((await send('PUT', `/admin/users/${user.id}/email`, adminSession, { email: other.email })).statusCode).toBe(409);
    const moved = await send('PUT', `/admin/users/${user.id}/email`, adminSession, { email: address.toUpperCase() });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().user.email).toBe(address);
    expect((await send('POST', '/auth/login', {}, { email: address, password: user.password })).statusCode).toBe(200);

    const again = `cli-${tag()}@example.test`;
    expect(await runCommand(['user', 'set-email', '--email', address, '--new-email', again], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects })).toEqual({ exitCode: 0, body: { id: user.id, email: again } });
  });
});
