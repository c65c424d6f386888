import { expect, it } from 'vitest';
import { keyReaches, reachableBoardIds, type Reach, roleOn } from '../../src/boards/access.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Actor } from '../../src/accounts/credentials/auth.js';
import { findReachableBoards } from '../../src/notifications/inbox/find-reachable-boards.js';
import { makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();

/**
 * A board's reach is written once, tb_reachable_boards (sql/board-role.sql), which tb_board_role
 * asks for one board; TypeScript keeps only the board cache's key half (access.ts keyReaches).
 * Every way of asking must answer alike for every kind of caller, or a list and a fetch would
 * disagree on a board.
 */
it('the board lists, the one-board role and the cache key test of reach agree for every kind of caller', async () => {
  const member = await makeUser(t.db);
  const stranger = await makeUser(t.db);
  const admin = await makeUser(t.db, { siteAdmin: true });
  const other = await makeUser(t.db);
  const a = await makeBoard(t.db, member.id);
  const b = await makeBoard(t.db, other.id, [{ userId: member.id, role: 'observer' }]);
  const c = await makeBoard(t.db, other.id);
  const boards = [a.id, b.id, c.id];

  const callers: [string, Reach][] = [
    ['a member, every board', { userId: member.id, boardIds: null }],
    ['a member, a key limited to one of its boards', { userId: member.id, boardIds: [b.id] }],
    ['a member, a key limited to a board it is not on', { userId: member.id, boardIds: [c.id] }],
    ['a member, a key whose boards are all gone', { userId: member.id, boardIds: [] }],
    // A NULL among a key's boards must not let an unlisted board through (= ANY is then NULL, not false).
    ['a member, a key listing one board and a NULL', { userId: member.id, boardIds: [b.id, null as unknown as number] }],
    ['a user on no board', { userId: stranger.id, boardIds: null }],
    ['a site admin on no board', { userId: admin.id, boardIds: null }],
    ['a member of another board', { userId: other.id, boardIds: [a.id, c.id] }],
  ];
  const expected: Record<string, number[]> = {
    'a member, every board': [a.id, b.id],
    'a member, a key limited to one of its boards': [b.id],
    'a member, a key limited to a board it is not on': [],
    'a member, a key whose boards are all gone': [],
    'a member, a key listing one board and a NULL': [b.id],
    'a user on no board': [],
    'a site admin on no board': [],
    'a member of another board': [c.id],
  };
  for (const [name, who] of callers) {
    const inSql = (await t.db.prisma.$queryRaw<{ id: number }[]>`
      SELECT b.id FROM "Board" b WHERE b.id IN (${Prisma.join(boards)}) AND tb_board_role(b.id, ${who.userId}::int, ${who.boardIds}::int[]) IS NOT NULL ORDER BY b.id`).map((r) => r.id);
    const listed = (await reachableBoardIds(t.db.prisma, who)).filter((id) => boards.includes(id)).sort((x, y) => x - y);
    const members = new Set((await t.db.prisma.boardMember.findMany({ where: { userId: who.userId }, select: { boardId: true } })).map((m) => m.boardId));
    const byKeyTest = boards.filter((id) => members.has(id) && keyReaches(who, id));
    const actor = { ...who, siteAdmin: name.includes('site admin') } as Actor;
    const byRoleOn = [];
    for (const id of boards) if (await roleOn(t.db.prisma, actor, id)) byRoleOn.push(id);
    const inbox = (await findReachableBoards({ db: t.db.prisma, who })).filter((id) => boards.includes(id)).sort((x, y) => x - y);
    expect({ name, inSql }).toEqual({ name, inSql: expected[name] });
    expect({ name, listed, byKeyTest, byRoleOn, inbox }).toEqual({ name, listed: inSql, byKeyTest: inSql, byRoleOn: inSql, inbox: inSql });
  }
});

it('the boards reached without their archived ones, in the same statement (search and assigned cards ask so)', async () => {
  const member = await makeUser(t.db);
  const open = await makeBoard(t.db, member.id);
  const archived = await makeBoard(t.db, member.id);
  await t.db.prisma.board.update({ where: { id: archived.id }, data: { archived: true } });
  const who: Reach = { userId: member.id, boardIds: null };
  expect((await reachableBoardIds(t.db.prisma, who)).sort((x, y) => x - y)).toEqual([open.id, archived.id]);
  expect(await reachableBoardIds(t.db.prisma, who, { activeOnly: true })).toEqual([open.id]);
  // A limited key keeps its own narrowing: an archived chosen board is still left out.
  expect(await reachableBoardIds(t.db.prisma, { userId: member.id, boardIds: [archived.id] }, { activeOnly: true })).toEqual([]);
});
