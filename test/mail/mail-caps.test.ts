import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { useLoopbackSmtp } from '../smtp-server.js';

/** #44 item 5: at most 10 mails of one kind to one address a day, and 5 e-mail change requests an hour per account. */
describe('mail caps', { timeout: 180_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test', RATE_LIMIT_MAX: '100000' }));
  const mailsTo = (recipient: string, kind: string) => t.db.prisma.mailMessage.count({ where: { recipient, kind } });

  it('per recipient: an invitation and its resends stop at 10 a day (429 with Retry-After), re-inviting included', async () => {
    const admin = await makeUser(t.db);
    const board = await makeBoard(t.db, admin.id);
    const headers = await loginCookie(t.app, admin.email, admin.password);
    const email = `flooded-${board.id}@example.test`;
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers, payload: { email, role: 'member' } });
    expect(invited.statusCode, invited.body).toBe(202);
    const resend = () => t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}/link`, headers });
    for (let i = 0; i < 9; i++) expect((await resend()).statusCode).toBe(200);
    const refused = await resend();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(80_000);
    expect(refused.json().error).toMatch(/at most 10 mails of this kind a day/);
    // Revoke and invite again: still the same address's day.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}`, headers })).statusCode).toBeLessThan(300);
    const again = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers, payload: { email, role: 'member' } });
    expect(again.statusCode, again.body).toBe(429);
    // Another board's admin cannot add to it either.
    const other = await makeUser(t.db);
    const otherBoard = await makeBoard(t.db, other.id);
    const fromOther = await t.app.inject({ method: 'POST', url: `/api/boards/${otherBoard.id}/members`, headers: await loginCookie(t.app, other.email, other.password), payload: { email, role: 'member' } });
    expect(fromOther.statusCode, fromOther.body).toBe(429);
    expect(await mailsTo(email, 'invitation')).toBe(10);
  });

  it('per sender: 5 e-mail change requests an hour per account, then 429 with Retry-After', async () => {
    const user = await makeUser(t.db);
    const headers = await loginCookie(t.app, user.email, user.password);
    const ask = (email: string) => t.app.inject({ method: 'PATCH', url: '/account', headers, payload: { email, currentPassword: user.password } });
    for (let i = 0; i < 5; i++) expect((await ask(`change-${user.id}-${i}@example.test`)).statusCode).toBe(200);
    const refused = await ask(`change-${user.id}-5@example.test`);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.json().error).toMatch(/5 e-mail change requests an hour/);
    expect(await t.db.prisma.mailMessage.count({ where: { kind: 'email-change', recipient: `change-${user.id}-5@example.test` } })).toBe(0);
  });

  it('per recipient: one address gets at most 10 e-mail change mails a day, whichever accounts ask', async () => {
    const target = `someone-else-${Date.now()}@example.test`;
    const users = await Promise.all([0, 1, 2].map(() => makeUser(t.db)));
    const statuses: number[] = [];
    for (const user of users) {
      const headers = await loginCookie(t.app, user.email, user.password);
      for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ method: 'PATCH', url: '/account', headers, payload: { email: target, currentPassword: user.password } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(await mailsTo(target, 'email-change')).toBe(10);
  });
});
