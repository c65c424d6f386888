import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { makeBoard } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';

/** The admin CLI's account commands, run in-process on a test database (the same code path the binary takes). */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config });
let n = 0;
const email = () => `cli-${++n}-${Date.now()}@example.com`;

describe('user commands', () => {
  it('creates, blocks, unblocks and deletes a user, printing the spec\'s fields', async () => {
    const e = email();
    const created = await admin('user', 'create', '--email', e.toUpperCase(), '--password', 'longenough', '--name', 'Cli User', '--admin');
    expect(created).toEqual({ exitCode: 0, body: { id: expect.any(Number), email: e, name: 'Cli User' } });
    const id = created.body.id;
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: id as number } })).siteAdmin).toBe(true);
    expect(await admin('user', 'block', '--email', e)).toEqual({ exitCode: 0, body: { id, status: 'blocked' } });
    expect(await admin('user', 'unblock', '--email', e)).toEqual({ exitCode: 0, body: { id, status: 'active' } });
    expect(await admin('user', 'delete', '--email', e)).toEqual({ exitCode: 0, body: { id, status: 'deleted' } });
    expect(await admin('user', 'block', '--email', e)).toEqual({ exitCode: 1, body: { error: expect.stringContaining('no user') } });
  });

  it('refuses a taken address, a short password and a missing flag with exit 1 and {error}', async () => {
    const e = email();
    await admin('user', 'create', '--email', e, '--password', 'longenough');
    expect(await admin('user', 'create', '--email', e, '--password', 'longenough')).toEqual({ exitCode: 1, body: { error: 'email: already registered' } });
    expect((await admin('user', 'create', '--email', email(), '--password', 'short')).body.error).toMatch(/^--password: must be at least 8/);
    expect((await admin('user', 'create', '--password', 'longenough')).body.error).toMatch(/^--email: /);
  });
});

describe('key commands', () => {
  it('creates a key with the UI\'s rules and prints its token once; revokes it', async () => {
    const e = email();
    const user = (await admin('user', 'create', '--email', e, '--password', 'longenough')).body;
    const board = await makeBoard(t.db, user.id as number);
    const created = await admin('key', 'create', '--email', e, '--name', 'deploy', '--permission', 'write', '--boards', String(board.id), '--expires', '30d');
    expect(created.exitCode).toBe(0);
    expect(created.body).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^tsk_[0-9A-Za-z]{46}$/),
      prefix: (created.body.token as string).slice(0, 10),
      permission: 'write',
      boards: [board.id],
      expiresAt: expect.any(String),
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/boards', headers: { authorization: `Bearer ${created.body.token}` } });
    expect(res.json().boards.map((b: { id: number }) => b.id)).toEqual([board.id]);

    const revoked = await admin('key', 'revoke', '--email', e, '--id', String(created.body.id));
    expect(revoked).toEqual({ exitCode: 0, body: { id: created.body.id, revokedAt: expect.any(String) } });
    const after = await t.app.inject({ method: 'GET', url: '/api/boards', headers: { authorization: `Bearer ${created.body.token}` } });
    expect(after.statusCode).toBe(401);
  });

  it('takes an exact --expires-at, past included (a key that is already stopped)', async () => {
    const e = email();
    await admin('user', 'create', '--email', e, '--password', 'longenough');
    const created = await admin('key', 'create', '--email', e, '--name', 'old', '--expires-at', '2020-01-01T00:00:00Z');
    expect(created.body.expiresAt).toBe('2020-01-01T00:00:00.000Z');
    const res = await t.app.inject({ method: 'GET', url: '/api/boards', headers: { authorization: `Bearer ${created.body.token}` } });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    [['--name', 'x'.repeat(61)], /^name: must be 1-60 characters$/],
    [['--name', 'k', '--expires', '2d'], /^--expires: must be one of never, 30d, 90d, 1y/],
    [['--name', 'k', '--expires', '30d', '--expires-at', '2030-01-01T00:00:00Z'], /^--expires: give --expires or --expires-at, not both/],
    [['--name', 'k', '--boards', 'a,b'], /^--boards: must be a comma-separated list of board ids/],
    [['--name', 'k', '--boards', Array.from({ length: 51 }, (_, i) => i + 1).join(',')], /^boardIds: at most 50 boards$/],
    [['--name', 'k', '--boards', '999999'], /^boardIds: board 999999 is not one of your boards$/],
    [['--name', 'k', '--permission', 'admin'], /^--permission: /],
  ])('refuses %j with exit 1', async (flags, message) => {
    const e = email();
    await admin('user', 'create', '--email', e, '--password', 'longenough');
    const res = await admin('key', 'create', '--email', e, ...flags);
    expect(res.exitCode).toBe(1);
    expect(res.body.error).toMatch(message);
  });

  it('refuses the 21st live key', async () => {
    const e = email();
    await admin('user', 'create', '--email', e, '--password', 'longenough');
    for (let i = 0; i < 20; i++) expect((await admin('key', 'create', '--email', e, '--name', `k${i}`)).exitCode).toBe(0);
    expect(await admin('key', 'create', '--email', e, '--name', 'k20')).toEqual({ exitCode: 1, body: { error: expect.stringMatching(/at most 20 live keys/) } });
  });
});
