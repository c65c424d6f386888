import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { linkIn, useLoopbackSmtp } from '../smtp-server.js';

/** #44 item 9: an anonymous "Forgot password" request voids neither a site admin's set-up link nor an invitation link. */
describe('a reset beside a set-up link and an invitation', { timeout: 90_000 }, () => {
  const smtp = useLoopbackSmtp();
  const t = useTestApp(() => smtp.env({ PUBLIC_BASE_URL: 'https://tb.example.test' }));

  it('the set-up link still opens and works after a reset was mailed; the reset link works too, and using one ends the other', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const user = await makeUser(t.db);
    const adminCookie = await loginCookie(t.app, admin.email, admin.password);
    const made = await t.app.inject({ method: 'POST', url: `/admin/users/${user.id}/setup-link`, headers: adminCookie });
    expect(made.statusCode, made.body).toBe(201);
    const setupToken = (made.json().setupLink.url as string).split('/join/')[1]!;

    // An invitation of another address, with its link.
    const board = await makeBoard(t.db, admin.id);
    const invitee = `invitee-${board.id}@example.test`;
    const invited = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: adminCookie, payload: { email: invitee, role: 'member' } });
    expect(invited.statusCode, invited.body).toBe(202);
    const invitationToken = (invited.json().invitation.url as string).split('/join/')[1]!;

    // Anyone asks for a reset of the user's address, and of the invited one.
    for (const email of [user.email, invitee]) {
      expect((await t.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email } })).statusCode).toBe(202);
    }
    const resetToken = linkIn((await smtp.waitFor(user.email)).text)!.split('/join/')[1]!;
    expect(resetToken).not.toBe(setupToken);

    expect((await t.app.inject({ method: 'GET', url: `/auth/join/${setupToken}` })).json().link).toMatchObject({ kind: 'account', email: user.email });
    expect((await t.app.inject({ method: 'GET', url: `/auth/join/${resetToken}` })).json().link).toMatchObject({ kind: 'account', email: user.email });
    expect((await t.app.inject({ method: 'GET', url: `/auth/join/${invitationToken}` })).json().link).toMatchObject({ kind: 'invitation', email: invitee });

    // The set-up link works; the password is chosen, so the reset link is used up with it.
    const used = await t.app.inject({ method: 'POST', url: `/auth/join/${setupToken}`, payload: { name: 'Set Up', password: 'a brand new password' } });
    expect(used.statusCode, used.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: `/auth/join/${resetToken}` })).statusCode).toBe(404);
    const joined = await t.app.inject({ method: 'POST', url: `/auth/join/${invitationToken}`, payload: { name: 'Invitee', password: 'invitee password' } });
    expect(joined.statusCode, joined.body).toBe(201);
  });
});
