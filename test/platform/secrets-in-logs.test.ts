import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask } from '../answers/answer-fixtures.js';

const t = useTestApp({ LOG_LEVEL: 'trace' });

describe('logs at trace level', () => {
  it('hold none of the secrets a session of uploads, keys, cookies and answers used', async () => {
    const user = await makeUser(t.db);
    const { token, auth } = await makeKey(t.db, user.id);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    const board = await makeBoard(t.db, user.id);
    const list = await t.db.prisma.list.create({ data: { boardId: board.id, name: 'L', position: 0 } });
    const card = await t.db.prisma.card.create({ data: { boardId: board.id, listId: list.id, title: 'C', position: 0 } });
    const boundary = `----tb${randomBytes(8).toString('hex')}`;
    const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`);
    for (const headers of [auth, { cookie }]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/cards/${card.id}/attachments`, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      expect(res.statusCode).toBe(201);
    }
    const w = await answerWorkspace(t);
    expect((await ask(t, w.token, { message: 'how do I reset my password?' })).statusCode).toBe(200);

    const logs = t.logs.raw.join('\n');
    expect(logs).toContain('Providing options to busboy'); // the line that used to carry the headers
    const cookieValue = cookie.split('=')[1]!;
    for (const secret of [token, cookieValue, w.token, user.password]) expect(logs).not.toContain(secret);
  });
});
