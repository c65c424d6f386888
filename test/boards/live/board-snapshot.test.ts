import { expect, it } from 'vitest';
import { boardSnapshotJson } from '../../../src/boards/boards/board-snapshot.js';
import { getBoard, presentBoardDetail } from '../reference-presenters.js';
import type { Actor } from '../../../src/accounts/credentials/auth.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

const t = useTestApp();

it('builds in SQL exactly what the presenter builds from Prisma rows (the board fetch fast path)', async () => {
  const admin = await makeUser(t.db);
  const other = await makeUser(t.db);
  const board = await makeBoard(t.db, admin.id, [{ userId: other.id, role: 'observer' }]);
  const { auth } = await makeKey(t.db, admin.id);
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: auth, payload });
  const lists = [];
  for (const name of ['To do', 'Doing', 'Done']) lists.push((await post(`/api/boards/${board.id}/lists`, { name })).json());
  const cards = [];
  for (let i = 0; i < 7; i++) cards.push((await post(`/api/lists/${lists[i % 3].id}/cards`, { title: `Card ${i} "quoted" ünïcode`, description: 'line\nbreak' })).json());
  await t.app.inject({ method: 'PATCH', url: `/api/cards/${cards[0].id}`, headers: auth, payload: { dueAt: '2030-01-02T03:04:05.678Z' } });
  await t.app.inject({ method: 'PATCH', url: `/api/cards/${cards[1].id}`, headers: auth, payload: { archived: true } });
  await t.app.inject({ method: 'PATCH', url: `/api/lists/${lists[2].id}`, headers: auth, payload: { archived: true } });
  await post(`/api/cards/${cards[4].id}/move`, { listId: lists[0].id, position: 0 });
  // Every part a summary carries, with text that needs escaping and a fractional number.
  const prisma = t.db.prisma;
  const label = await prisma.label.create({ data: { boardId: board.id, name: 'Tab\there "quoted"', color: 'red' } });
  const estimate = await prisma.customField.create({ data: { boardId: board.id, name: 'Estimate', type: 'number' } });
  const priority = await prisma.customField.create({ data: { boardId: board.id, name: 'Priority', type: 'list', options: ['low', 'hi, "gh"'] } });
  await prisma.cardLabel.create({ data: { cardId: cards[0].id, labelId: label.id } });
  await prisma.cardAssignee.create({ data: { cardId: cards[0].id, userId: other.id } });
  await prisma.cardFieldValue.createMany({ data: [{ cardId: cards[0].id, fieldId: estimate.id, value: 2.5 }, { cardId: cards[0].id, fieldId: priority.id, value: 'hi, "gh"' }] });
  await prisma.checklist.create({ data: { cardId: cards[3].id, name: 'Steps', position: 0, items: { create: [{ name: 'one', checked: true, position: 0 }, { name: 'two', position: 1 }] } } });
  await prisma.comment.create({ data: { cardId: cards[3].id, authorId: admin.id, authorName: admin.name, text: 'a comment' } });
  // One member with a picture: the snapshot writes its URL in SQL, presentMember with avatarUrl().
  await prisma.user.update({ where: { id: other.id }, data: { avatarKey: `snapshot-avatar-${other.id}`, avatarType: 'image/png' } });

  const actor: Actor = { userId: admin.id, name: admin.name, email: admin.email, siteAdmin: false, via: 'key', keyId: null, sessionId: null, permission: 'write', boardIds: null };
  const { board: rows, role } = await getBoard({ db: t.db.prisma, actor, boardId: board.id });
  const text = (await boardSnapshotJson(t.db.prisma, board.id, { userId: admin.id, boardIds: null }))!;
  const fromSql = JSON.parse(text);
  // Sent as the database wrote it: in JSON.stringify's compact form, as every other response.
  expect(text).toBe(JSON.stringify(fromSql));
  expect(await boardSnapshotJson(t.db.prisma, board.id, { userId: (await makeUser(t.db)).id, boardIds: null })).toBeNull();
  // A key limited to other boards: out of reach in the statement itself (tb_board_role), whatever its user is.
  expect(await boardSnapshotJson(t.db.prisma, board.id, { userId: admin.id, boardIds: [board.id + 1] })).toBeNull();
  expect(await boardSnapshotJson(t.db.prisma, board.id, { userId: admin.id, boardIds: [board.id] })).toBe(text);
  expect(fromSql).toEqual(presentBoardDetail(rows, role));

  const res = await t.app.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: auth });
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.json()).toEqual(fromSql);
  expect(fromSql.lists.map((l: { cards: unknown[] }) => l.cards.length)).toEqual([4, 0]);
});
