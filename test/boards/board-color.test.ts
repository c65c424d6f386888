import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, expectBoard, expectError, expectFieldError, expectStatus, fetchBoard, lastActivity, makeTeam } from '../board-factories.js';
import { useTestApp } from '../helper.js';

/** A board's colour or background (#35 item 10): chosen at creation or later by its admins, on every board answer. */
const t = useTestApp(() => BOARD_TEST_ENV);

describe('board colour', () => {
  it('defaults to blue, is set at creation or by a PATCH, and is refused when unknown', async () => {
    const team = await makeTeam(t);
    const created = await team.as.admin.post('/api/boards', { name: 'Sunny', color: 'sunset' });
    expectStatus(created, 201);
    expectBoard(created.json());
    expect(created.json().color).toBe('sunset');
    expect((await team.as.admin.post('/api/boards', { name: 'Plain' })).json().color).toBe('blue');
    expectFieldError(await team.as.admin.post('/api/boards', { name: 'Bad', color: 'chartreuse' }), 'color');

    const patched = await team.as.admin.patch(`/api/boards/${team.board.id}`, { color: 'forest' });
    expectStatus(patched, 200);
    expect(patched.json().color).toBe('forest');
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({ type: 'board.updated', data: { changes: { color: 'forest' }, board: { color: 'forest' } } });
    expect((await fetchBoard(team.as.observer, team.board.id)).color).toBe('forest');
    const listed = (await team.as.member.get('/api/boards')).json().boards;
    expect(listed.find((b: { id: number }) => b.id === team.board.id).color).toBe('forest');

    expectFieldError(await team.as.admin.patch(`/api/boards/${team.board.id}`, { color: '#ff0000' }), 'color');
    expectError(await team.as.member.patch(`/api/boards/${team.board.id}`, { color: 'red' }), 403);
  });
});
