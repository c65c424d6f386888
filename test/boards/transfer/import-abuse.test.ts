import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, makeTeam } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';
import { readBoardFile } from '../../../src/boards/transfer/read-board-file.js';
import { MAX_CSV_COLUMNS, readCsvCards } from '../../../src/boards/transfer/csv/read-csv-cards.js';

// Found by an independent review of the import (session 13): each of these failed before its fix.
const t = useTestApp(BOARD_TEST_ENV);

describe('imports that must not stall the server or be taken for something else', () => {
  it('maps comments by 40,000 distinct former members in linear time (it was quadratic: minutes of a blocked event loop)', () => {
    const n = 40_000;
    const file = {
      id: 'b', name: 'B', lists: [{ id: 'l', name: 'L', pos: 1 }], cards: [{ id: 'c', name: 'C', pos: 1, idList: 'l' }],
      actions: Array.from({ length: n }, (_, i) => ({ id: `a${i}`, type: 'commentCard', date: '2020-01-01T00:00:00.000Z', idMemberCreator: `m${i}`, data: { text: 'x', card: { id: 'c' } } })),
    };
    const started = performance.now();
    // Over 1,000 people is refused; what matters is that it is refused quickly.
    expect(() => readBoardFile(JSON.stringify(file))).toThrow();
    // Linear: well under a second when quiet. Quadratic took 7.9 s for half as many; the bound leaves room for a busy CI box.
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('refuses a CSV header wider than the bound, instead of walking every row over every column', () => {
    expect(() => readCsvCards(`Title${','.repeat(100_000)}\n${'x\n'.repeat(1000)}`)).toThrow(`more than ${MAX_CSV_COLUMNS} columns`);
    expect(readCsvCards(`Title${','.repeat(MAX_CSV_COLUMNS - 1)}\nx\n`).cards).toHaveLength(1);
  });

  it('takes a CSV column named "constructor" or "__proto__" as a column, not as an Object property (it was a 500 after the cards were written)', async () => {
    const { as, board } = await makeTeam(t);
    const res = await as.admin.post(`/api/boards/${board.id}/cards/import`, { csv: 'Title,constructor,__proto__,toString\nA card,x,y,z\n' });
    expect(res.statusCode).toBe(201);
    expect(readCsvCards('Title,constructor\nA,b\n').columns).toEqual({ Title: 'title', constructor: 'ignore' });
  });

  it('answers malformed multipart with 400, never 500', async () => {
    const user = await makeUser(t.db);
    const key = await makeKey(t.db, user.id);
    for (const [type, payload] of [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=xx', 'garbage'],
      ['multipart/form-data; boundary=xx', '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n{"a":'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/boards/import', headers: { ...key.auth, 'content-type': type }, payload });
      expect(res.statusCode, `${type}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type}: ${res.body}`).toBeLessThan(500);
    }
    expect(await t.db.prisma.board.count({ where: { members: { some: { userId: user.id } } } })).toBe(0);
  });

  it("matching people never makes a colleague the new board's admin; their comments are theirs, on the file's date (in UTC), with the text as written", async () => {
    const importer = await makeUser(t.db);
    const colleague = await makeUser(t.db);
    await makeBoard(t.db, colleague.id, [{ userId: importer.id, role: 'observer' }]);
    const api = client(t.app, (await makeKey(t.db, importer.id)).auth);
    const res = await api.post('/api/boards/import?matchMembers=true', {
      format: 'taskboard-board', version: 1,
      board: { name: 'F', description: '', archived: false }, labels: [], customFields: [],
      members: [{ key: 'v', name: 'x', email: colleague.email, role: 'admin' }],
      lists: [{ name: 'L', archived: false, position: 0, cards: [{ title: 'C', description: '', archived: false, position: 0, dueAt: null, labels: [], members: [], fieldValues: {}, checklists: [],
        comments: [{ author: 'v', authorName: 'x', text: 'I approve', createdAt: '2026-01-01T10:00:00-05:00' }], attachments: [] }] }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const boardId = res.json().board.id as number;
    expect((await t.db.prisma.boardMember.findFirst({ where: { boardId, userId: colleague.id } }))?.role).toBe('member');
    const comment = await t.db.prisma.comment.findFirstOrThrow({ where: { card: { boardId } } });
    expect(comment.authorId).toBe(colleague.id);
    // Issue #46 item 9: no "(imported)" line in the text; the date is the comment's, its offset turned into UTC.
    expect(comment.text).toBe('I approve');
    expect(comment.createdAt.toISOString()).toBe('2026-01-01T15:00:00.000Z');
  });
});
