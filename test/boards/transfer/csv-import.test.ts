import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, expectError, expectStatus, makeCard, makeLabel, makeTeam } from '../../board-factories.js';
import { useTestApp } from '../../helper.js';

/** POST /api/boards/{id}/cards/import: cards from CSV into an existing board, previewed first. */
const t = useTestApp(BOARD_TEST_ENV);

const CSV = [
  'Summary,Status,Description,Labels,Due date,Assignee,Story points',
  'First,Todo,"Line one\nline ""two""","Bug, New label",2030-01-02,MEMBER_EMAIL,3',
  'Second,In review,,Bug,,nobody@example.com,5',
  'Third,todo,plain,,2030-02-03T10:00:00,,',
].join('\r\n');

describe('POST /api/boards/{id}/cards/import', () => {
  it('previews the mapping, the new lists and labels and the first cards, then appends the cards to their lists', async () => {
    const { as, board, list, member } = await makeTeam(t);
    const api = as.admin;
    await makeCard(api, list.id, 'Already there');
    const bug = await makeLabel(api, board.id, 'bug', 'red');
    const memberEmail = (await t.db.prisma.user.findUniqueOrThrow({ where: { id: member.id } })).email;
    const csv = CSV.replace('MEMBER_EMAIL', memberEmail);

    const preview = await api.post(`/api/boards/${board.id}/cards/import?dryRun=true`, { csv });
    expectStatus(preview, 200);
    expect(preview.json()).toMatchObject({
      dryRun: true,
      columns: { Summary: 'title', Status: 'list', Description: 'description', Labels: 'labels', 'Due date': 'due', Assignee: 'members', 'Story points': 'ignore' },
      cards: 3,
      newLists: ['In review'],
      newLabels: ['New label'],
      problems: [],
    });
    expect(preview.json().unmapped[0]).toMatchObject({ what: 'people who are not members of the board (not assigned)', count: 1 });
    expect(await t.db.prisma.card.count({ where: { boardId: board.id } })).toBe(1);

    const res = await api.post(`/api/boards/${board.id}/cards/import`, { csv });
    expectStatus(res, 201);
    const cards = await t.db.prisma.card.findMany({ where: { boardId: board.id }, include: { list: true, labels: { include: { label: true } }, assignees: true }, orderBy: { id: 'asc' } });
    expect(cards.map((c) => [c.title, c.list.name, c.position])).toEqual([['Already there', 'Todo', 0], ['First', 'Todo', 1], ['Second', 'In review', 0], ['Third', 'Todo', 2]]);
    expect(cards[1]!.description).toBe('Line one\nline "two"');
    expect(cards[1]!.labels.map((l) => l.label.name).sort()).toEqual(['New label', 'bug']);
    expect(cards[1]!.labels.some((l) => l.labelId === bug.id)).toBe(true);
    expect(cards[1]!.assignees.map((a) => a.userId)).toEqual([member.id]);
    expect(cards[1]!.dueAt?.toISOString()).toBe('2030-01-02T00:00:00.000Z');
    expect(cards[3]!.dueAt?.toISOString()).toBe('2030-02-03T10:00:00.000Z');
    const activity = (await api.get(`/api/boards/${board.id}/activity?limit=10`)).json().activities.map((a: any) => a.type);
    expect(activity.filter((x: string) => x === 'card.created')).toHaveLength(4);
    expect(activity).toContain('list.created');
    expect(activity).toContain('label.created');
  });

  it('takes a mapping for other headers, lists bad rows in the preview and refuses the import while any remain', async () => {
    const { as, board } = await makeTeam(t);
    const csv = 'Task,When\nGood,2030-01-01\n,2030-01-01\nBad date,soon\n';
    const preview = await as.admin.post(`/api/boards/${board.id}/cards/import?dryRun=true`, { csv, columns: { Task: 'title', When: 'due' } });
    expectStatus(preview, 200);
    expect(preview.json().problems).toEqual([{ row: 3, message: 'title: empty' }, { row: 4, message: 'due: "soon" is not a date (YYYY-MM-DD or ISO-8601)' }]);
    expectError(await as.admin.post(`/api/boards/${board.id}/cards/import`, { csv, columns: { Task: 'title', When: 'due' } }), 400, /^csv: row 3: title: empty/);
    expectError(await as.admin.post(`/api/boards/${board.id}/cards/import`, { csv }), 400, /no column is the card title/);
    expectError(await as.admin.post(`/api/boards/${board.id}/cards/import`, { csv: 'Title\n"open' }), 400, /quoted cell is not closed/);
    expect(await t.db.prisma.card.count({ where: { boardId: board.id } })).toBe(0);
  });

  it('is for admins and members: observers get 403, strangers 404', async () => {
    const { as, board } = await makeTeam(t);
    expectError(await as.observer.post(`/api/boards/${board.id}/cards/import`, { csv: 'Title\nA' }), 403);
    expectError(await as.stranger.post(`/api/boards/${board.id}/cards/import`, { csv: 'Title\nA' }), 404);
    expectStatus(await as.member.post(`/api/boards/${board.id}/cards/import`, { csv: 'Title\nA' }), 201);
  });
});
