import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, expectError, expectStatus, makeBoardOwner, makeTeam } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** The daily cap on invitations to new addresses, per inviter (INVITES_PER_DAY; 2 here). */
const t = useTestApp({ ...BOARD_TEST_ENV, INVITES_PER_DAY: '2' });

const invite = (api: ReturnType<typeof client>, boardId: number, email: string) =>
  api.post(`/api/boards/${boardId}/members`, { email, role: 'member' });

describe('INVITES_PER_DAY', () => {
  it('lets an inviter invite that many new addresses a day, then answers 429 {error} with Retry-After', async () => {
    const team = await makeTeam(t);
    const tag = `b${team.board.id}`;
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-1@example.com`), 202);
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-2@example.com`), 202);
    const third = await invite(team.as.admin, team.board.id, `${tag}-3@example.com`);
    expectError(third, 429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts per inviter across all their boards, and with every key of theirs', async () => {
    const inviter = await makeUser(t.db);
    const first = await makeBoard(t.db, inviter.id);
    const second = await makeBoard(t.db, inviter.id);
    const keyA = client(t.app, (await makeKey(t.db, inviter.id)).auth);
    const keyB = client(t.app, (await makeKey(t.db, inviter.id)).auth);
    const tag = `u${inviter.id}`;
    expectStatus(await invite(keyA, first.id, `${tag}-1@example.com`), 202);
    expectStatus(await invite(keyB, second.id, `${tag}-2@example.com`), 202);
    expectError(await invite(keyA, second.id, `${tag}-3@example.com`), 429);
    expectError(await invite(keyB, first.id, `${tag}-4@example.com`), 429);
  });

  it('does not hold one inviter\'s cap against another admin of the same board', async () => {
    const team = await makeTeam(t);
    expectStatus(await team.as.admin.patch(`/api/boards/${team.board.id}/members/${team.member.id}`, { role: 'admin' }), 200);
    const tag = `c${team.board.id}`;
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-1@example.com`), 202);
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-2@example.com`), 202);
    expectError(await invite(team.as.admin, team.board.id, `${tag}-3@example.com`), 429);
    expectStatus(await invite(team.as.member, team.board.id, `${tag}-3@example.com`), 202);
  });

  it('still adds registered users once the cap is reached: they are not invitations', async () => {
    const team = await makeTeam(t);
    const tag = `d${team.board.id}`;
    const registered = await makeUser(t.db);
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-1@example.com`), 202);
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-2@example.com`), 202);
    expectError(await invite(team.as.admin, team.board.id, `${tag}-3@example.com`), 429);
    const added = await invite(team.as.admin, team.board.id, registered.email);
    expectStatus(added, 201);
    expect(added.json()).toMatchObject({ userId: registered.id, role: 'member' });
  });

  it('does not count adding registered users toward the cap', async () => {
    const team = await makeTeam(t);
    const tag = `e${team.board.id}`;
    for (let i = 0; i < 3; i++) {
      const user = await makeUser(t.db);
      expectStatus(await invite(team.as.admin, team.board.id, user.email), 201);
    }
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-1@example.com`), 202);
    expectStatus(await invite(team.as.admin, team.board.id, `${tag}-2@example.com`), 202);
  });

  it('keeps counting invitations against the cap after their board is deleted', async () => {
    const { user, call } = await makeBoardOwner(t);
    const first = (await call('POST', '/api/boards', { name: 'one' })).json;
    expect((await call('POST', `/api/boards/${first.id}/members`, { email: `a-${user.id}@example.com`, role: 'member' })).status).toBe(202);
    expect((await call('POST', `/api/boards/${first.id}/members`, { email: `b-${user.id}@example.com`, role: 'member' })).status).toBe(202);
    expect((await call('DELETE', `/api/boards/${first.id}`)).status).toBe(204);
    const second = (await call('POST', '/api/boards', { name: 'two' })).json;
    expect((await call('POST', `/api/boards/${second.id}/members`, { email: `c-${user.id}@example.com`, role: 'member' })).status).toBe(429);
  });
});
