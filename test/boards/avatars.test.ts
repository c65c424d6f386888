import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, expectError, expectStatus, fetchBoard, makeTeam } from '../board-factories.js';
import { png } from './pictures.js';
import { useTestApp } from '../helper.js';

/** Avatar pictures (#35 item 10): uploaded by their owner, on every member entry, served by their key. */
const t = useTestApp(() => BOARD_TEST_ENV);

// A 64 × 64 PNG's headers, then random bytes (each picture's size is read from its header: random ones were any size).
const PNG = Buffer.concat([png(64, 64), randomBytes(64)]);

function uploadAvatar(auth: Record<string, string>, data: Buffer, filename = 'me.png') {
  const boundary = '----tbavatar';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: 'PUT', url: '/api/account/avatar', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

describe('avatar pictures', () => {
  it('upload, show on the board, serve, replace, refuse what is not a picture, remove', async () => {
    const team = await makeTeam(t);
    expect((await team.as.member.get('/api/account/avatar')).json()).toEqual({ avatarUrl: null });
    const before = await fetchBoard(team.as.admin, team.board.id);
    expect(before.members.find((m: { userId: number }) => m.userId === team.member.id).avatarUrl).toBeNull();

    const res = await uploadAvatar(team.keys.member.auth, PNG);
    expectStatus(res, 200);
    const url: string = res.json().avatarUrl;
    expect(url).toMatch(/^\/api\/avatars\/[0-9a-f]{32}$/);
    expect((await team.as.member.get('/api/account/avatar')).json()).toEqual({ avatarUrl: url });
    // Cached snapshots are dropped: the board shows it at once, and so does the members list.
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.members.find((m: { userId: number }) => m.userId === team.member.id).avatarUrl).toBe(url);
    const members = (await team.as.observer.get(`/api/boards/${team.board.id}/members`)).json().members;
    expect(members.find((m: { userId: number }) => m.userId === team.member.id).avatarUrl).toBe(url);

    const picture = await team.as.observer.get(url);
    expectStatus(picture, 200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['cache-control']).toContain('immutable');
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    expectError(await team.as.observer.get('/api/avatars/0123456789abcdef0123456789abcdef'), 404);
    expectError(await team.as.observer.get('/api/avatars/..%2f..%2fetc'), 404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    expectError(await uploadAvatar(team.keys.member.auth, Buffer.from('not a picture at all'), 'me.txt'), 400, /^file: not a picture \(text\/plain\)/);
    expect((await team.as.member.get('/api/account/avatar')).json()).toEqual({ avatarUrl: url });
    expectError(await uploadAvatar(team.keys.member.auth, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)])), 413);

    // A new picture has a new URL; the old one is gone (purged from the store).
    const second = (await uploadAvatar(team.keys.member.auth, PNG)).json().avatarUrl;
    expect(second).not.toBe(url);
    await t.app.attachments.idle();
    await t.app.attachments.purgeDeleted();
    expectError(await team.as.observer.get(url), 404);
    expectStatus(await team.as.observer.get(second), 200);

    expect((await team.as.member.del('/api/account/avatar')).json()).toEqual({ avatarUrl: null });
    expect((await team.as.member.del('/api/account/avatar')).json()).toEqual({ avatarUrl: null });
    expectError(await team.as.observer.get(second), 404);
    expect((await fetchBoard(team.as.admin, team.board.id)).members.find((m: { userId: number }) => m.userId === team.member.id).avatarUrl).toBeNull();
  });
});
