import { describe, expect, it } from 'vitest';
import { client } from '../board-factories.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { type ReceivedMail, useLoopbackSmtp } from '../smtp-server.js';

/**
 * #44 item 1: no mailed link follows a request header. PUBLIC_BASE_URL is unset here, so links go
 * to the listener's own http://HOST:PORT (HOST 0.0.0.0 as 127.0.0.1); every request below carries
 * a stranger's Host (and X-Forwarded-Host, trusted or not), and every link in every mail kind —
 * reset, invitation, re-sent invitation, e-mail change, notification digest and its unsubscribe
 * link — must still point at the listener.
 */
const tag = () => Math.random().toString(36).slice(2, 10);
const FORGED = { host: 'evil.example:8443', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

/** Every absolute link in a mail: both bodies and the headers (List-Unsubscribe). */
const linksIn = (mail: ReceivedMail) => [...`${mail.decoded}\n${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);

for (const trustProxy of ['false', 'true']) {
  describe(`TRUST_PROXY=${trustProxy}, PUBLIC_BASE_URL unset, HOST 0.0.0.0`, { timeout: 120_000 }, () => {
    const smtp = useLoopbackSmtp();
    const t = useTestApp(() => smtp.env({ HOST: '0.0.0.0', PORT: '4321', TRUST_PROXY: trustProxy, NOTIFY_MAIL_BATCH_SECONDS: '1', RATE_LIMIT_MAX: '100000' }));
    const ORIGIN = 'http://127.0.0.1:4321';

    const expectOurLinks = (mail: ReceivedMail) => {
      const links = linksIn(mail);
      expect(links.length, mail.text).toBeGreaterThan(0);
      for (const link of links) expect(new URL(link).origin, link).toBe(ORIGIN);
      expect(mail.decoded).not.toContain('evil.example');
    };

    it('a password reset asked for with a forged Host', async () => {
      const user = await makeUser(t.db);
      const res = await t.app.inject({ method: 'POST', url: '/auth/password-reset', headers: FORGED, payload: { email: user.email } });
      expect(res.statusCode, res.body).toBe(202);
      expectOurLinks(await smtp.waitFor(user.email));
    });

    it('an invitation, its re-sent link, and the set-up link an admin makes', async () => {
      const admin = await makeUser(t.db, { siteAdmin: true });
      const board = await makeBoard(t.db, admin.id);
      const headers = { ...FORGED, ...(await loginCookie(t.app, admin.email, admin.password)) };
      const email = `invitee-${tag()}@example.test`;
      const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers, payload: { email, role: 'member' } });
      expect(invited.statusCode, invited.body).toBe(202);
      expect(new URL(invited.json().invitation.url).origin).toBe(ORIGIN);
      expectOurLinks(await smtp.waitFor(email));
      const renewed = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}/link`, headers });
      expect(renewed.statusCode, renewed.body).toBe(200);
      const deadline = Date.now() + 60_000;
      while (smtp.to(email).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expectOurLinks(smtp.to(email)[1]!);

      const other = await makeUser(t.db);
      const setup = await t.app.inject({ method: 'POST', url: `/admin/users/${other.id}/setup-link`, headers });
      expect(setup.statusCode, setup.body).toBe(201);
      expect(new URL(setup.json().setupLink.url).origin).toBe(ORIGIN);
    });

    it('an e-mail change confirmation', async () => {
      const user = await makeUser(t.db);
      const address = `new-${tag()}@example.test`;
      const headers = { ...FORGED, ...(await loginCookie(t.app, user.email, user.password)) };
      const asked = await t.app.inject({ method: 'PATCH', url: '/account', headers, payload: { email: address, currentPassword: user.password } });
      expect(asked.statusCode, asked.body).toBe(200);
      expectOurLinks(await smtp.waitFor(address));
    });

    it('a notification digest and its unsubscribe link, the change made with a forged Host', async () => {
      await t.app.ready();
      const ada = await makeUser(t.db);
      const bob = await makeUser(t.db);
      const board = await makeBoard(t.db, ada.id, [{ userId: bob.id, role: 'member' }]);
      const api = client(t.app, { ...(await makeKey(t.db, ada.id)).auth, ...FORGED });
      const list = (await api.post(`/api/boards/${board.id}/lists`, { name: 'To do' })).json();
      const card = (await api.post(`/api/lists/${list.id}/cards`, { title: 'Check the links' })).json();
      expect((await api.put(`/api/cards/${card.id}/members/${bob.id}`)).statusCode).toBeLessThan(300);
      const mail = await smtp.waitFor(bob.email);
      expectOurLinks(mail);
      expect(linksIn(mail).some((l) => l.includes('/unsubscribe/'))).toBe(true);
    });
  });
}

describe('SMTP_URL without PUBLIC_BASE_URL', () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PORT: '4323' }));
  it('starts, and warns once naming both settings', async () => {
    await t.app.ready();
    const warnings = t.logs.lines.filter((l) => /PUBLIC_BASE_URL/.test(String(l.msg)));
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toMatch(/SMTP_URL/);
    expect(warnings[0]!.level).toBe(40);
  });
});
