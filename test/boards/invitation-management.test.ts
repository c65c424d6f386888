import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, boardActivities, client, expectError, expectFieldError, expectNoContent, expectStatus, makeTeam } from '../board-factories.js';
import { createUserWithInvitations as createUser } from '../../src/boards/members/sign-up.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { buildTestApp, useTestApp } from '../helper.js';

/** Pending invitations: listed and revoked by board admins; inviting a pending address again is a 409. */
const t = useTestApp(BOARD_TEST_ENV);

type Team = Awaited<ReturnType<typeof makeTeam>>;
const invite = (team: Team, email: string, role = 'member', as = team.as.admin) => as.post(`/api/boards/${team.board.id}/members`, { email, role });
const invitations = async (team: Team, as = team.as.admin) => {
  const res = await as.get(`/api/boards/${team.board.id}/invitations`);
  expectStatus(res, 200);
  expect(Object.keys(res.json())).toEqual(['invitations']);
  return res.json().invitations as any[];
};
const addr = (team: Team, n: string) => `inv-${team.board.id}-${n}@example.com`;

describe('GET /api/boards/{id}/invitations', () => {
  it('lists pending invitations oldest first, with who invited them and when', async () => {
    const team = await makeTeam(t);
    // The pending list has no link: links are shown once, when made (test/accounts/account.test.ts); nor whether it was mailed.
    const { url: _link, mailed: _mailed, ...first } = (await invite(team, addr(team, 'one'), 'observer')).json().invitation;
    await invite(team, addr(team, 'Two').toUpperCase(), 'admin');
    const list = await invitations(team);
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({ ...first, createdAt: expect.any(String), invitedBy: { userId: team.admin.id, name: team.admin.name } });
    expect(Object.keys(list[0]).sort()).toEqual(['createdAt', 'email', 'expiresAt', 'invitedBy', 'role']);
    expect(list[1]).toMatchObject({ email: addr(team, 'two'), role: 'admin' });
    expect(Date.parse(list[0].createdAt)).toBeLessThanOrEqual(Date.parse(list[1].createdAt));
  });

  it('leaves out accepted and expired invitations', async () => {
    const team = await makeTeam(t);
    const accepted = addr(team, 'accepted');
    await invite(team, accepted);
    await invite(team, addr(team, 'expired'));
    await invite(team, addr(team, 'pending'));
    await createUser({ db: t.db.prisma, email: accepted, password: 'long enough', name: 'Accepted', events: t.app.events, effects: t.app.effects });
    await t.db.prisma.invitation.updateMany({ where: { email: addr(team, 'expired') }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await invitations(team)).map((i) => i.email)).toEqual([addr(team, 'pending')]);
  });

  it('is for board admins: members and observers 403, strangers 404; a read key of an admin may list', async () => {
    const team = await makeTeam(t);
    await invite(team, addr(team, 'x'));
    expectError(await team.as.member.get(`/api/boards/${team.board.id}/invitations`), 403);
    expectError(await team.as.observer.get(`/api/boards/${team.board.id}/invitations`), 403);
    expectError(await team.as.stranger.get(`/api/boards/${team.board.id}/invitations`), 404);
    const read = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expect(await invitations(team, read)).toHaveLength(1);
    expectError(await t.app.inject({ method: 'GET', url: `/api/boards/${team.board.id}/invitations` }), 401);
  });
});

describe('DELETE /api/boards/{id}/invitations/{email}', () => {
  it('revokes a pending invitation (204, activity invitation.revoked); the address can be invited again', async () => {
    const team = await makeTeam(t);
    const email = addr(team, 'gone');
    await invite(team, email, 'observer');
    await invite(team, addr(team, 'stays'));
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${encodeURIComponent(email.toUpperCase())}`));
    expect((await invitations(team)).map((i) => i.email)).toEqual([addr(team, 'stays')]);
    const [activity] = await boardActivities(team.as.admin, team.board.id, 1);
    expect(activity).toMatchObject({ type: 'invitation.revoked', data: { email, role: 'observer' } });
    const again = await invite(team, email, 'admin');
    expectStatus(again, 202);
    expect(again.json().invitation).toMatchObject({ email, role: 'admin' });
    // Once registered, the address joins with the role of the new invitation.
    const user = await createUser({ db: t.db.prisma, email, password: 'long enough', name: 'Late', events: t.app.events, effects: t.app.effects });
    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members).toContainEqual({ userId: user.id, name: 'Late', email, role: 'admin', avatarUrl: null });
  });

  it('a revoked invitation is not accepted when the address registers', async () => {
    const team = await makeTeam(t);
    const email = addr(team, 'revoked');
    await invite(team, email);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${email}`));
    const user = await createUser({ db: t.db.prisma, email, password: 'long enough', name: 'Nope', events: t.app.events, effects: t.app.effects });
    const members = (await team.as.admin.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members.map((m: any) => m.userId)).not.toContain(user.id);
  });

  it('404 when there is no pending invitation for the address (never, already revoked, expired)', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${addr(team, 'never')}`), 404, /^invitation: not found$/);
    await invite(team, addr(team, 'twice'));
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${addr(team, 'twice')}`));
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${addr(team, 'twice')}`), 404);
    await invite(team, addr(team, 'old'));
    await t.db.prisma.invitation.updateMany({ where: { email: addr(team, 'old') }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/${addr(team, 'old')}`), 404);
  });

  it('checks 401, then 403 for a read key, then 404 for the board, then 403 for the role; 400 for a bad address', async () => {
    const team = await makeTeam(t);
    const email = addr(team, 'guarded');
    await invite(team, email);
    const url = `/api/boards/${team.board.id}/invitations/${email}`;
    expectError(await t.app.inject({ method: 'DELETE', url }), 401);
    const read = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await read.del(url), 403);
    expectError(await team.as.stranger.del(url), 404, /^board: not found$/);
    expectError(await team.as.member.del(url), 403);
    expectError(await team.as.observer.del(url), 403);
    expectFieldError(await team.as.admin.del(`/api/boards/${team.board.id}/invitations/not-an-address`), 'params.email');
    expect((await invitations(team)).map((i) => i.email)).toEqual([email]);
  });
});

describe('inviting an address that already has a pending invitation', () => {
  it('is 409 naming the pending role, and changes nothing (same role or another)', async () => {
    const team = await makeTeam(t);
    const email = addr(team, 'dup');
    const { url: _link, mailed: _mailed, ...first } = (await invite(team, email, 'member')).json().invitation;
    for (const role of ['member', 'admin']) {
      const res = await invite(team, email.toUpperCase(), role);
      expectError(res, 409, /^email: .*already invited \(role member, until .*\); revoke the invitation/);
    }
    expect(await invitations(team)).toEqual([expect.objectContaining(first)]);
    const types = (await boardActivities(team.as.admin, team.board.id)).map((a) => a.type);
    expect(types.filter((type) => type.startsWith('member.invited') || type.startsWith('invitation.'))).toEqual(['member.invited']);
  });

  it('replaces an expired invitation with a new one (202)', async () => {
    const team = await makeTeam(t);
    const email = addr(team, 'lapsed');
    await invite(team, email, 'observer');
    await t.db.prisma.invitation.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await invite(team, email, 'member');
    expectStatus(res, 202);
    expect(Date.parse(res.json().invitation.expiresAt)).toBeGreaterThan(Date.now());
    expect(await invitations(team)).toEqual([expect.objectContaining({ email, role: 'member' })]);
  });
});

describe('an invitation whose address registers', () => {
  it('becomes a membership, announced as member.added', async () => {
    const other = await buildTestApp();
    try {
      const user = await makeUser(other.db);
      const board = await makeBoard(other.db, user.id);
      const { auth } = await makeKey(other.db, user.id);
      const email = `invitee-${Date.now()}@example.com`;
      const invited = await other.app.inject({ method: 'POST', url: `/api/boards/${board.id}/members`, headers: auth, payload: { email, role: 'observer' } });
      expect(invited.statusCode).toBe(202);
      const published: string[] = [];
      other.app.events.subscribe(board.id, (a) => published.push(a.type));
      const invitee = await createUser({ db: other.db.prisma, email, password: 'long enough', name: 'Invitee', events: other.app.events, effects: other.app.effects });
      const members = (await other.app.inject({ method: 'GET', url: `/api/boards/${board.id}/members`, headers: auth })).json().members;
      expect(members).toContainEqual({ userId: invitee.id, name: 'Invitee', email, role: 'observer', avatarUrl: null });
      const activity = (await other.app.inject({ method: 'GET', url: `/api/boards/${board.id}/activity`, headers: auth })).json().activities[0];
      expect(activity).toMatchObject({ type: 'member.added', actor: { userId: invitee.id, name: 'Invitee', keyId: null }, data: { userId: invitee.id } });
      expect(published).toEqual(['member.added']);
    } finally {
      await other.close();
    }
  });
});
