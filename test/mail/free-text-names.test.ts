import { describe, expect, it } from 'vitest';
import { client } from '../board-factories.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { type ReceivedMail, useLoopbackSmtp } from '../smtp-server.js';

/**
 * #44 item 10: names anyone chooses (an inviter's, a board's, a requester's, a card's title) reach
 * mail quoted as names, and no link written in them survives: the only links are the server's.
 */
const BAIT = 'Taskboard security team: your account is locked, reset at https://evil.example/reset or www.evil.example';
const ORIGIN = 'https://tb.example.test';

const linksIn = (mail: ReceivedMail) => [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);
function expectNoBait(mail: ReceivedMail) {
  for (const link of linksIn(mail)) expect(new URL(link).origin, link).toBe(ORIGIN);
  for (const body of [mail.subject, mail.text, mail.html]) {
    expect(body).not.toMatch(/evil\.example/);
    expect(body).not.toMatch(/www\./);
  }
}

describe('free-text names in mail', { timeout: 120_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: ORIGIN, NOTIFY_MAIL_BATCH_SECONDS: '1', RATE_LIMIT_MAX: '100000' }));

  it('an invitation quotes the inviter and the board, with no link of theirs', async () => {
    const admin = await makeUser(t.db, { name: BAIT });
    const board = await makeBoard(t.db, admin.id, [], 'Reset at evil.example/now');
    const email = `invitee-${board.id}@example.test`;
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: await loginCookie(t.app, admin.email, admin.password), payload: { email, role: 'member' } });
    expect(invited.statusCode, invited.body).toBe(202);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toMatch(/^“Taskboard security team: [^”]*…” invited you to the board “Reset at evil\[\.\]example\/now” on Taskboard$/);
    expectNoBait(mail);
  });

  it('an e-mail change to someone else\'s address quotes the requester\'s name and greets nobody by it', async () => {
    const user = await makeUser(t.db, { name: BAIT });
    const address = `victim-${user.id}@example.test`;
    const asked = await t.app.inject({ method: 'PATCH', url: '/account', headers: await loginCookie(t.app, user.email, user.password), payload: { email: address, currentPassword: user.password } });
    expect(asked.statusCode, asked.body).toBe(200);
    const mail = await smtp.waitFor(address);
    expect(mail.text.startsWith('Hello,')).toBe(true);
    expect(mail.text).toContain('The Taskboard account “Taskboard security team');
    expectNoBait(mail);
  });

  it('a notification digest about a card titled with a link', async () => {
    await t.app.ready();
    const ada = await makeUser(t.db, { name: 'Ada see evil.example' });
    const bob = await makeUser(t.db);
    const board = await makeBoard(t.db, ada.id, [{ userId: bob.id, role: 'member' }]);
    const api = client(t.app, (await makeKey(t.db, ada.id)).auth);
    const list = (await api.post(`/api/boards/${board.id}/lists`, { name: 'To do' })).json();
    const card = (await api.post(`/api/lists/${list.id}/cards`, { title: 'Log in at https://evil.example/login now' })).json();
    expect((await api.put(`/api/cards/${card.id}/members/${bob.id}`)).statusCode).toBeLessThan(300);
    const mail = await smtp.waitFor(bob.email);
    expectNoBait(mail);
  });
});
