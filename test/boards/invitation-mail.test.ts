import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { linkIn, useLoopbackSmtp } from '../smtp-server.js';

/** #34 item 2: an invitation of an address without an account is mailed with its /join/ link; resend mails a new one. */
describe('with SMTP', { timeout: 90_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test' }));

  it('mails the invitee the link the admin also sees; the link joins the board; resend mails a new link and the old one stops', async () => {
    const admin = await makeUser(t.db, { name: 'Ada Admin' });
    const board = await makeBoard(t.db, admin.id, [], 'Roadmap');
    const cookie = await loginCookie(t.app, admin.email, admin.password);
    const email = `invitee-${board.id}@example.test`;
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: cookie, payload: { email, role: 'member' } });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(invited.json().invitation).toMatchObject({ email, mailed: true });
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('“Ada Admin” invited you to the board “Roadmap” on Taskboard');
    expect(linkIn(mail.text)).toBe(invited.json().invitation.url);

    const renewed = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}/link`, headers: cookie });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().invitation.mailed).toBe(true);
    const deadline = Date.now() + 20_000;
    while (smtp.to(email).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const second = smtp.to(email)[1]!;
    expect(linkIn(second.text)).toBe(renewed.json().invitation.url);
    const oldToken = linkIn(mail.text)!.split('/').pop()!;
    const newToken = linkIn(second.text)!.split('/').pop()!;
    expect((await t.app.inject({ method: 'GET', url: `/auth/join/${oldToken}` })).statusCode).toBe(404);
    const joined = await t.app.inject({ method: 'POST', url: `/auth/join/${newToken}`, payload: { name: 'Ivy', password: 'ivy joins boards' } });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json().boardId).toBe(board.id);
  });

  it('adding a registered user by address stays a direct add, with no mail', async () => {
    const admin = await makeUser(t.db);
    const member = await makeUser(t.db);
    const board = await makeBoard(t.db, admin.id);
    const added = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: await loginCookie(t.app, admin.email, admin.password), payload: { email: member.email, role: 'member' } });
    expect(added.statusCode, added.body).toBe(201);
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.to(member.email)).toHaveLength(0);
  });
});

describe('without SMTP', () => {
  const t = useTestApp();
  it('writes no mail and says so: the admin hands the link over', async () => {
    const admin = await makeUser(t.db);
    const board = await makeBoard(t.db, admin.id);
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: await loginCookie(t.app, admin.email, admin.password), payload: { email: `x-${board.id}@example.test`, role: 'member' } });
    expect(invited.statusCode).toBe(202);
    expect(invited.json().invitation.mailed).toBe(false);
    expect(await t.db.prisma.mailMessage.count()).toBe(0);
  });
});
