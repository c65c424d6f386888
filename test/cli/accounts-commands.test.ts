import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { helpText, runCommand } from '../../src/cli/run-command.js';
import { makeBoard } from '../factories.js';
import { useTestApp } from '../helper.js';

/** The admin CLI's account commands, run in-process on a test database (the same code path the binary takes). */
const t = useTestApp();

const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
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
    expect((await admin('user', 'create', '--password', 'longenough')).body.error).toMatch(/^--email is required \(usage: /);
    expect((await admin('user', 'create', '--email', email())).body.error).toMatch(/^--password is required \(usage: user create /);
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

describe('listing commands', () => {
  it('user list prints every account, oldest first, with its status', async () => {
    const e = email();
    const created = (await admin('user', 'create', '--email', e, '--password', 'longenough', '--name', 'Listed')).body;
    await admin('user', 'block', '--email', e);
    const res = await admin('user', 'list');
    expect(res.exitCode).toBe(0);
    const users = res.body.users as { id: number }[];
    expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
    expect(users.find((u) => u.id === created.id)).toEqual({
      id: created.id, email: e, name: 'Listed', siteAdmin: false, status: 'blocked', createdAt: expect.any(String),
    });
    expect((await admin('user', 'list', '--email', e)).body.error).toMatch(/^--email: unknown flag for "user list"/);
  });

  it('key list prints a user\'s keys, newest first, revoked ones too, never a token', async () => {
    const e = email();
    await admin('user', 'create', '--email', e, '--password', 'longenough');
    const first = (await admin('key', 'create', '--email', e, '--name', 'first')).body;
    const second = (await admin('key', 'create', '--email', e, '--name', 'second', '--permission', 'write')).body;
    await admin('key', 'revoke', '--email', e, '--id', String(first.id));
    const res = await admin('key', 'list', '--email', e.toUpperCase());
    expect(res.exitCode).toBe(0);
    const keys = res.body.keys as Record<string, unknown>[];
    expect(keys.map((k) => k.id)).toEqual([second.id, first.id]);
    expect(keys[0]).toMatchObject({ name: 'second', permission: 'write', prefix: second.prefix, revokedAt: null });
    expect(keys[1]!.revokedAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(second.token as string);
    expect((await admin('key', 'list', '--email', 'nobody@example.com')).body.error).toMatch(/no user/);
  });

  it('board list prints a user\'s boards with their role, active ones unless --archived', async () => {
    const e = email();
    const user = (await admin('user', 'create', '--email', e, '--password', 'longenough')).body;
    const active = await makeBoard(t.db, user.id as number);
    const archived = await makeBoard(t.db, user.id as number);
    await t.db.prisma.board.update({ where: { id: archived.id }, data: { archived: true } });
    const res = await admin('board', 'list', '--email', e);
    expect(res).toEqual({ exitCode: 0, body: { boards: [expect.objectContaining({ id: active.id, name: active.name, role: 'admin', archived: false })] } });
    const old = await admin('board', 'list', '--email', e, '--archived');
    expect((old.body.boards as { id: number }[]).map((b) => b.id)).toEqual([archived.id]);
  });
});

describe('--help', () => {
  it('describes every command: its usage, summary and each flag of its schema', () => {
    for (const command of commands) {
      const text = helpText([...command.name.split(' '), '--help']);
      expect(text, command.name).toContain(`usage: npm run --silent admin -- ${command.usage}`);
      expect(text).toContain('flags:');
      expect(text).toMatch(/--help +print this help/);
    }
    const keyCreate = helpText(['key', 'create', '--help']);
    expect(keyCreate).toMatch(/--email E +required/);
    expect(keyCreate).toMatch(/--permission read\|write +optional/);
    expect(helpText(['board', 'list', '-h'])).toMatch(/--archived +optional/);
  });

  it('lists a group\'s commands, and every command at the top level', () => {
    const group = helpText(['key', '--help']);
    expect(group).toContain('key commands:');
    expect(group).toMatch(/key list +list a user's API keys/);
    expect(group).not.toContain('user create');
    const top = helpText(['--help']);
    for (const name of ['user list', 'key list', 'board list', 'db migrate']) expect(top).toContain(`  ${name} `);
  });

  it('is printed by the CLI itself, with exit 0, without opening a database', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'key', 'list', '--help'], { encoding: 'utf8', env: { ...process.env, DATA_DIR: '/nonexistent/tb-help' } });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run --silent admin -- key list --email E\n/);
  });
});
