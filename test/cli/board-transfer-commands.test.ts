import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { TRELLO_FIXTURES } from '../boards/transfer/trello-fixtures.js';

/** board import, board export and board export-all, run in-process on a test database (the binary's code path). */
const t = useTestApp();
const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });

describe('board import / export / export-all', () => {
  it('imports a real Trello export for a user, exports it again (JSON and CSV), and re-imports the JSON', async () => {
    const user = await makeUser(t.db);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'board-cli-'));
    const imported = await admin('board', 'import', '--email', user.email, '--file', path.join(TRELLO_FIXTURES, 'trello2planka-simple-project-board.json'));
    expect(imported.exitCode).toBe(0);
    expect(imported.body).toMatchObject({ source: 'trello', board: { name: 'Simple Project Board', role: 'admin' }, summary: { lists: 5, cards: 10, comments: 4 } });
    const boardId = (imported.body.board as { id: number }).id;

    const out = path.join(dir, 'b.json');
    expect(await admin('board', 'export', '--email', user.email, '--board', String(boardId), '--out', out)).toMatchObject({ exitCode: 0, body: { board: boardId, file: out } });
    const file = JSON.parse(await readFile(out, 'utf8'));
    expect(file.format).toBe('taskboard-board');
    expect(file.lists.flatMap((l: any) => l.cards)).toHaveLength(10);
    const csv = path.join(dir, 'b.csv');
    expect((await admin('board', 'export', '--email', user.email, '--board', String(boardId), '--out', csv, '--format', 'csv')).exitCode).toBe(0);
    expect((await readFile(csv, 'utf8')).trim().split('\r\n')).toHaveLength(11);

    const again = await admin('board', 'import', '--email', user.email, '--file', out);
    expect(again).toMatchObject({ exitCode: 0, body: { source: 'taskboard', summary: { lists: 5, cards: 10 } } });
  });

  it('refuses a board the user cannot read, a file that is not an export, and a missing file, with exit 1 and the reason', async () => {
    const user = await makeUser(t.db);
    const other = await makeUser(t.db);
    const theirs = await makeBoard(t.db, other.id);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'board-cli-'));
    expect(await admin('board', 'export', '--email', user.email, '--board', String(theirs.id), '--out', path.join(dir, 'x.json'))).toEqual({ exitCode: 1, body: { error: 'board: not found' } });
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, '{"hello": 1}');
    expect((await admin('board', 'import', '--email', user.email, '--file', bad)).body.error).toMatch(/^file: neither a Trello board export/);
    expect((await admin('board', 'import', '--email', user.email, '--file', path.join(dir, 'missing.json'))).body.error).toMatch(/^--file: cannot read/);
    expect(await t.db.prisma.boardMember.count({ where: { userId: user.id } })).toBe(0);
  });

  it('export-all writes every board, archived ones too, for backup', async () => {
    const user = await makeUser(t.db);
    const a = await makeBoard(t.db, user.id, [], 'Backup A');
    const b = await t.db.prisma.board.create({ data: { name: 'Backup B', archived: true, members: { create: { userId: user.id, role: 'admin' } } } });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'board-backup-'));
    const res = await admin('board', 'export-all', '--out', dir);
    expect(res.exitCode).toBe(0);
    const all = await t.db.prisma.board.count();
    expect(res.body).toEqual({ boards: all, dir });
    const names = await readdir(dir);
    expect(names).toContain(`board-${a.id}.json`);
    expect(JSON.parse(await readFile(path.join(dir, `board-${b.id}.json`), 'utf8')).board).toEqual({ name: 'Backup B', description: '', color: 'blue', archived: true });
  });
});
