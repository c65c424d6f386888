import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  client,
  expectError,
  expectFieldError,
  expectNoContent,
  expectStatus,
  makeTeam,
} from '../board-factories.js';
import { makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** Board members: list, add or invite, change role, remove; a board keeps an admin (SPEC §3). */
const t = useTestApp(BOARD_TEST_ENV);

const byUserId = (members: { userId: number }[]) => [...members].sort((a, b) => a.userId - b.userId);
const asMember = (user: { id: number; name: string; email: string }, role: string) => ({ userId: user.id, name: user.name, email: user.email, role, avatarUrl: null });

describe('GET /api/boards/{id}/members', () => {
  it('returns {"members": [{userId, name, email, role, avatarUrl}]}, to every role', async () => {
    const team = await makeTeam(t);
    const expected = byUserId([asMember(team.admin, 'admin'), asMember(team.member, 'member'), asMember(team.observer, 'observer')]);
    for (const api of [team.as.admin, team.as.member, team.as.observer]) {
      const res = await api.get(`/api/boards/${team.board.id}/members`);
      expectStatus(res, 200);
      const body = res.json();
      expect(Object.keys(body)).toEqual(['members']);
      expect(byUserId(body.members)).toEqual(expected);
    }
  });
});

describe('POST /api/boards/{id}/members', () => {
  it('adds a registered user (201 with the member), who then reaches the board with that role', async () => {
    const team = await makeTeam(t);
    const newcomer = await makeUser(t.db);
    const res = await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: newcomer.email, role: 'member' });
    expectStatus(res, 201);
    expect(res.json()).toEqual(asMember(newcomer, 'member'));

    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members).toContainEqual(asMember(newcomer, 'member'));
    const newcomerApi = client(t.app, (await makeKey(t.db, newcomer.id)).auth);
    const board = await newcomerApi.get(`/api/boards/${team.board.id}`);
    expectStatus(board, 200);
    expect(board.json().role).toBe('member');
  });

  it.each(['admin', 'observer'] as const)('adds a registered user as %s', async (role) => {
    const team = await makeTeam(t);
    const newcomer = await makeUser(t.db);
    const res = await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: newcomer.email, role });
    expectStatus(res, 201);
    expect(res.json()).toEqual(asMember(newcomer, role));
  });

  it('invites an unknown address: 202 {"invitation": {email, role, expiresAt, url}}, not yet a member', async () => {
    const team = await makeTeam(t);
    const email = `invitee-${team.board.id}@example.com`;
    const res = await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email, role: 'observer' });
    expectStatus(res, 202);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['invitation']);
    // `mailed`: false here, a server without SMTP (test/boards/invitation-mail.test.ts mails it).
    expect(Object.keys(body.invitation).sort()).toEqual(['email', 'expiresAt', 'mailed', 'role', 'url']);
    expect(body.invitation.mailed).toBe(false);
    // The link to hand over: the invitee opens it to join (test/accounts/account.test.ts, "invitation links").
    expect(body.invitation.url).toMatch(/^http:\/\/[^/]+\/join\/inv_[0-9A-Za-z]{46}$/);
    expect(body.invitation).toMatchObject({ email, role: 'observer' });
    expect(body.invitation.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Date.parse(body.invitation.expiresAt)).toBeGreaterThan(Date.now());

    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members.map((m: any) => m.email)).not.toContain(email);
  });

  it('answers 409 for someone who is already a member, whatever the role asked, and changes nothing', async () => {
    const team = await makeTeam(t);
    for (const [user, role] of [
      [team.member, 'admin'],
      [team.observer, 'observer'],
      [team.admin, 'member'],
    ] as const) {
      expectError(await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: user.email, role }), 409);
    }
    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(byUserId(members)).toEqual(byUserId([asMember(team.admin, 'admin'), asMember(team.member, 'member'), asMember(team.observer, 'observer')]));
  });

  it('is for admins only: a member or an observer gets 403 and nobody is added or invited', async () => {
    const team = await makeTeam(t);
    const newcomer = await makeUser(t.db);
    for (const api of [team.as.member, team.as.observer]) {
      expectError(await api.post(`/api/boards/${team.board.id}/members`, { email: newcomer.email, role: 'member' }), 403);
      expectError(await api.post(`/api/boards/${team.board.id}/members`, { email: 'nobody-yet@example.com', role: 'member' }), 403);
    }
    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members.map((m: any) => m.userId)).not.toContain(newcomer.id);
  });

  it.each([
    ['a missing email', { role: 'member' }, 'email'],
    ['an email that is not an address', { email: 'not-an-address', role: 'member' }, 'email'],
    ['a missing role', { email: 'x@example.com' }, 'role'],
    ['an unknown role', { email: 'x@example.com', role: 'owner' }, 'role'],
    ['an unknown field', { email: 'x@example.com', role: 'member', message: 'hi' }, 'message'],
  ])('refuses %s with 400 naming the field', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/members`, payload), field);
  });
});

describe('PATCH /api/boards/{id}/members/{userId}', () => {
  it('changes a member\'s role (200 with the member), and the new role applies at once', async () => {
    const team = await makeTeam(t);
    const res = await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.observer.id}`, { role: 'member' });
    expectStatus(res, 200);
    expect(res.json()).toEqual(asMember(team.observer, 'member'));
    expect((await team.as.observer.get(`/api/boards/${team.board.id}`)).json().role).toBe('member');
    expectStatus(await team.as.observer.post(`/api/lists/${team.list.id}/cards`, { title: 'now allowed' }), 201);

    const demoted = await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, { role: 'observer' });
    expectStatus(demoted, 200);
    expectError(await team.as.member.post(`/api/lists/${team.list.id}/cards`, { title: 'no longer allowed' }), 403);
  });

  it('can make another admin, who may then manage members', async () => {
    const team = await makeTeam(t);
    expectStatus(await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, { role: 'admin' }), 200);
    const res = await team.as.member.patch(`/api/boards/${team.board.id}/members/${team.observer.id}`, { role: 'member' });
    expectStatus(res, 200);
    expect(res.json()).toEqual(asMember(team.observer, 'member'));
  });

  it('answers 404 for a user who is not a member of the board', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.stranger.id}`, { role: 'member' }), 404);
    expectError(await team.as.admin.patch(`/api/boards/${team.board.id}/members/999999`, { role: 'member' }), 404);
  });

  it('is for admins only: a member or an observer gets 403', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.member.patch(`/api/boards/${team.board.id}/members/${team.observer.id}`, { role: 'member' }), 403);
    expectError(await team.as.observer.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, { role: 'observer' }), 403);
    expectError(await team.as.member.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, { role: 'admin' }), 403);
    expect((await team.as.member.get(`/api/boards/${team.board.id}`)).json().role).toBe('member');
  });

  it.each([
    ['a missing role', {}, 'role'],
    ['an unknown role', { role: 'superuser' }, 'role'],
    ['an unknown field', { role: 'member', email: 'x@example.com' }, 'email'],
  ])('refuses %s with 400 naming the field', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, payload), field);
  });
});

describe('DELETE /api/boards/{id}/members/{userId}', () => {
  it('removes a member (204, no body); they are gone from the list and lose the board', async () => {
    const team = await makeTeam(t);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`));
    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members.map((m: any) => m.userId)).not.toContain(team.member.id);
    expectError(await team.as.member.get(`/api/boards/${team.board.id}`), 404);
    expect((await team.as.member.get('/api/boards')).json()).toEqual({ boards: [] });
  });

  it('answers 404 for a user who is not a member', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.stranger.id}`), 404);
  });

  it('is for admins only: a member or an observer gets 403', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.member.del(`/api/boards/${team.board.id}/members/${team.observer.id}`), 403);
    expectError(await team.as.observer.del(`/api/boards/${team.board.id}/members/${team.member.id}`), 403);
    expectError(await team.as.member.del(`/api/boards/${team.board.id}/members/${team.admin.id}`), 403);
    expect((await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members).toHaveLength(3);
  });
});

describe('a board keeps at least one admin', () => {
  it('refuses to remove or demote the last admin (409), leaving them admin', async () => {
    const team = await makeTeam(t);
    const url = `/api/boards/${team.board.id}/members/${team.admin.id}`;
    expectError(await team.as.admin.patch(url, { role: 'member' }), 409);
    expectError(await team.as.admin.patch(url, { role: 'observer' }), 409);
    expectError(await team.as.admin.del(url), 409);
    expect((await team.as.admin.get(`/api/boards/${team.board.id}`)).json().role).toBe('admin');
  });

  it('lets an admin step down or be removed while another admin remains, then protects the last one', async () => {
    const team = await makeTeam(t);
    const base = `/api/boards/${team.board.id}/members`;
    expectStatus(await team.as.admin.patch(`${base}/${team.member.id}`, { role: 'admin' }), 200);
    // Two admins: the first may step down.
    const down = await team.as.admin.patch(`${base}/${team.admin.id}`, { role: 'member' });
    expectStatus(down, 200);
    expect(down.json()).toEqual(asMember(team.admin, 'member'));
    // Now the former member is the only admin.
    expectError(await team.as.member.patch(`${base}/${team.member.id}`, { role: 'observer' }), 409);
    expectError(await team.as.member.del(`${base}/${team.member.id}`), 409);
    // Promote again, then remove one admin outright.
    expectStatus(await team.as.member.patch(`${base}/${team.admin.id}`, { role: 'admin' }), 200);
    expectNoContent(await team.as.admin.del(`${base}/${team.member.id}`));
    expectError(await team.as.admin.del(`${base}/${team.admin.id}`), 409);
  });

  it('setting the last admin\'s role to admin again is not a demotion (200)', async () => {
    const team = await makeTeam(t);
    const res = await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.admin.id}`, { role: 'admin' });
    expectStatus(res, 200);
    expect(res.json()).toEqual(asMember(team.admin, 'admin'));
  });
});
