import { describe, expect, it } from 'vitest';
import { fullCardInclude, presentCard } from '../reference-presenters.js';
import {
  BOARD_TEST_ENV,
  type Client,
  CARD_SUMMARY_KEYS,
  expectCardResponse,
  expectNoContent,
  expectStatus,
  fetchBoard,
  getCard,
  lastActivity,
  makeCard,
  makeChecklist,
  makeComment,
  makeField,
  makeItem,
  makeLabel,
  makeList,
  makeTeam,
  setField,
  summaryOf,
} from '../../board-factories.js';
import { makeBoard, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * Card parts through moves, copies and member removal, and in the board fetch, the archive and
 * the reference presenter (SPEC §3).
 */
const t = useTestApp(BOARD_TEST_ENV);

type Team = Awaited<ReturnType<typeof makeTeam>>;

/**
 * A card dressed with everything: two labels, the admin and the member assigned, a text and a
 * list value, two checklists (three items, one checked), two comments.
 */
async function dressedCard(team: Team, api: Client = team.as.admin, listId = team.list.id) {
  const card = await makeCard(api, listId, 'Dressed', 'With every part');
  const labels = [await makeLabel(api, team.board.id, 'Bug', 'red'), await makeLabel(api, team.board.id, 'Ops', null)];
  for (const l of labels) expectStatus(await api.put(`/api/cards/${card.id}/labels/${l.id}`), 200);
  for (const u of [team.admin, team.member]) expectStatus(await api.put(`/api/cards/${card.id}/members/${u.id}`), 200);
  const text = await makeField(team.as.admin, team.board.id, 'text');
  const list = await makeField(team.as.admin, team.board.id, 'list', ['High', 'Low']);
  await setField(api, card.id, text.id, 'notes');
  await setField(api, card.id, list.id, 'High');
  const c1 = await makeChecklist(api, card.id, 'One');
  await makeItem(api, c1.id, 'first', true);
  await makeItem(api, c1.id, 'second');
  const c2 = await makeChecklist(api, card.id, 'Two');
  await makeItem(api, c2.id, 'third');
  await makeComment(api, card.id, 'first comment');
  await makeComment(team.as.observer, card.id, 'second comment');
  const full = await getCard(api, card.id);
  expect(full).toMatchObject({ checklistItems: { total: 3, checked: 1 }, commentCount: 2 });
  expect(full.labelIds).toHaveLength(2);
  expect(full.memberIds).toHaveLength(2);
  expect(Object.keys(full.fieldValues)).toHaveLength(2);
  return { card: full, labels, fields: { text, list } };
}

/** The labels (name/colour, sorted) that `ids` name on a board: labels move between boards by name and colour (#46). */
async function labelsNamed(api: Client, boardId: number, ids: number[]) {
  const labels = (await fetchBoard(api, boardId)).labels as { id: number; name: string; color: string | null }[];
  expect(ids.every((id) => labels.some((l) => l.id === id)), 'every label id is one of the board').toBe(true);
  return labels.filter((l) => ids.includes(l.id)).map((l) => `${l.name}/${l.color}`).sort();
}

/** The checklists of a card without their ids: names, positions, items' names, checked, positions. */
const checklistShape = (card: any) =>
  card.checklists.map((l: any) => ({ name: l.name, position: l.position, items: l.items.map((i: any) => ({ name: i.name, checked: i.checked, position: i.position })) }));

describe('moving a card to another board', () => {
  it('maps the labels by name and colour, drops the values of the old board and assignees who are not on the new one', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    // The target board: the admin is on it, the member is not.
    const target = await makeBoard(t.db, team.admin.id);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const res = await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id, position: 0 });
    const moved = expectCardResponse(res, 200);
    expect(moved).toMatchObject({ id: card.id, boardId: target.id, listId: targetList.id, memberIds: [team.admin.id], fieldValues: {} });
    expect(await labelsNamed(team.as.admin, target.id, moved.labelIds)).toEqual(['Bug/red', 'Ops/null']);
    // Checklists and comments travel with the card.
    expect(moved.checklistItems).toEqual({ total: 3, checked: 1 });
    expect(checklistShape(moved)).toEqual(checklistShape(card));
    expect(moved.commentCount).toBe(2);
    expect(moved.comments).toEqual(card.comments);
    expect(moved.version).toBeGreaterThan(card.version);
    expect(await getCard(team.as.admin, card.id)).toEqual(moved);
    const inTarget = (await fetchBoard(team.as.admin, target.id)).lists[0].cards[0];
    expect(inTarget).toEqual(summaryOf(moved));
    const a = await lastActivity(team.as.admin, target.id);
    expect(a).toMatchObject({ type: 'card.moved', data: { cardId: card.id, card: { labelIds: moved.labelIds, fieldValues: {}, memberIds: [team.admin.id] } } });
  });

  it('keeps an assignee who is a member of both boards, whatever their role there', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const target = await makeBoard(t.db, team.admin.id, [{ userId: team.member.id, role: 'observer' }]);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const moved = expectCardResponse(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id }), 200);
    expect(moved.memberIds).toEqual([team.admin.id, team.member.id].sort((a, b) => a - b));
    expect(await labelsNamed(team.as.admin, target.id, moved.labelIds)).toEqual(['Bug/red', 'Ops/null']);
    expect(moved.fieldValues).toEqual({});
  });

  it('keeps every part when the card moves within its board', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const moved = expectCardResponse(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: doing.id }), 200);
    const { listId: _l, version: _v, updatedAt: _u, position: _p, ...rest } = moved;
    const { listId: _l2, version: _v2, updatedAt: _u2, position: _p2, ...before } = card;
    expect(rest).toEqual(before);
    expect(moved.listId).toBe(doing.id);
  });

  it('comes back to its board with that board’s own labels, not copies', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const target = await makeBoard(t.db, team.admin.id, [{ userId: team.member.id, role: 'member' }]);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    expectStatus(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id }), 200);
    const back = expectCardResponse(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: team.list.id }), 200);
    expect(back).toMatchObject({ boardId: team.board.id, fieldValues: {} });
    expect([...back.labelIds].sort()).toEqual([...card.labelIds].sort());
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toHaveLength(2);
    expect(back.memberIds).toEqual([team.admin.id, team.member.id].sort((a, b) => a - b));
  });
});

describe('moving a list to another board', () => {
  it('does the same for every card of the list', async () => {
    const team = await makeTeam(t);
    const { card: first } = await dressedCard(team);
    const second = await makeCard(team.as.admin, team.list.id, 'Second');
    const label = (await fetchBoard(team.as.admin, team.board.id)).labels[0];
    expectStatus(await team.as.admin.put(`/api/cards/${second.id}/labels/${label.id}`), 200);
    expectStatus(await team.as.admin.put(`/api/cards/${second.id}/members/${team.observer.id}`), 200);
    const secondBefore = await getCard(team.as.admin, second.id);
    const target = await makeBoard(t.db, team.admin.id, [{ userId: team.observer.id, role: 'member' }]);

    const res = await team.as.admin.post(`/api/lists/${team.list.id}/move`, { boardId: target.id, position: 0 });
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({ id: team.list.id, boardId: target.id });

    const a = await getCard(team.as.admin, first.id);
    expect(a).toMatchObject({ boardId: target.id, listId: team.list.id, fieldValues: {}, memberIds: [team.admin.id] });
    expect(await labelsNamed(team.as.admin, target.id, a.labelIds)).toEqual(['Bug/red', 'Ops/null']);
    expect(a.checklistItems).toEqual({ total: 3, checked: 1 });
    expect(a.commentCount).toBe(2);
    expect(a.version).toBeGreaterThan(first.version);
    const b = await getCard(team.as.admin, second.id);
    expect(b).toMatchObject({ boardId: target.id, memberIds: [team.observer.id] });
    expect(await labelsNamed(team.as.admin, target.id, b.labelIds)).toEqual([`${label.name}/${label.color}`]);
    expect(b.version).toBeGreaterThan(secondBefore.version);
    const board = await fetchBoard(team.as.admin, target.id);
    expect(board.lists[0].cards.map((c: any) => c.id)).toEqual([first.id, second.id]);
    expect(board.lists[0].cards).toEqual([summaryOf(a), summaryOf(b)]);
    // The labels and fields stay on the old board.
    const old = await fetchBoard(team.as.admin, team.board.id);
    expect(old.labels).toHaveLength(2);
    expect(old.customFields).toHaveLength(2);
  });
});

describe('POST /api/cards/{id}/copy', () => {
  it('copies labels, checklists with their items and checked states, and values; not assignees or comments', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const res = await team.as.member.post(`/api/cards/${card.id}/copy`, {});
    const copy = expectCardResponse(res, 201);
    expect(copy.id).not.toBe(card.id);
    expect(copy).toMatchObject({
      boardId: team.board.id,
      listId: team.list.id,
      title: card.title,
      description: card.description,
      position: 1,
      labelIds: card.labelIds,
      fieldValues: card.fieldValues,
      memberIds: [],
      commentCount: 0,
      comments: [],
      attachmentCount: 0,
      attachments: [],
      checklistItems: { total: 3, checked: 1 },
    });
    expect(checklistShape(copy)).toEqual(checklistShape(card));
    // New checklists and items, not shared ones.
    // (Checklist and item ids are counted apart: a checklist's id may equal an item's.)
    const ids = (c: any) => c.checklists.flatMap((l: any) => [`checklist ${l.id}`, ...l.items.map((i: any) => `item ${i.id}`)]);
    for (const id of ids(copy)) expect(ids(card)).not.toContain(id);
    for (const l of copy.checklists) {
      expect(l.cardId).toBe(copy.id);
      for (const i of l.items) expect(i.checklistId).toBe(l.id);
    }
    expect(await getCard(team.as.admin, copy.id)).toEqual(copy);
    // The source is untouched.
    expect(await getCard(team.as.admin, card.id)).toEqual(card);
    // Editing the copy's items leaves the source's alone.
    expectStatus(await team.as.member.patch(`/api/items/${copy.checklists[0].items[1].id}`, { checked: true }), 200);
    expect((await getCard(team.as.admin, card.id)).checklistItems).toEqual({ total: 3, checked: 1 });
    expect((await getCard(team.as.admin, copy.id)).checklistItems).toEqual({ total: 3, checked: 2 });
  });

  it('to another board: checklists come along, labels are mapped by name and colour as a move maps them, values of the source board do not', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const target = await makeBoard(t.db, team.admin.id, [{ userId: team.member.id, role: 'member' }]);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const existing = await makeLabel(team.as.admin, target.id, 'Bug', 'red'); // the target's own "Bug/red" is used, not a second one
    const copy = expectCardResponse(await team.as.member.post(`/api/cards/${card.id}/copy`, { listId: targetList.id }), 201);
    expect(copy).toMatchObject({ boardId: target.id, listId: targetList.id, fieldValues: {}, memberIds: [], commentCount: 0 });
    expect(await labelsNamed(team.as.admin, target.id, copy.labelIds)).toEqual(['Bug/red', 'Ops/null']);
    expect(copy.labelIds).toContain(existing.id);
    expect((await fetchBoard(team.as.admin, target.id)).labels).toHaveLength(2);
    expect(await getCard(team.as.admin, card.id)).toEqual(card); // the source keeps its own board's labels
    expect(checklistShape(copy)).toEqual(checklistShape(card));
    expect(copy.checklistItems).toEqual({ total: 3, checked: 1 });
    expect((await fetchBoard(team.as.admin, target.id)).lists[0].cards).toEqual([summaryOf(copy)]);
  });

  it('records card.copied with the new card summary', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const copy = expectCardResponse(await team.as.member.post(`/api/cards/${card.id}/copy`, { title: 'Copy of it' }), 201);
    expect(copy.title).toBe('Copy of it');
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a.type).toBe('card.copied');
    expect(a.data.cardId === copy.id || a.data.card?.id === copy.id).toBe(true);
    expect(Object.keys(a.data.card).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
  });
});

describe('removing a member from the board', () => {
  it('unassigns them everywhere on the board, archived cards included; the board fetch agrees', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    for (const c of [a, b]) expectStatus(await team.as.admin.put(`/api/cards/${c.id}/members/${team.observer.id}`), 200);
    expectStatus(await team.as.admin.put(`/api/cards/${a.id}/members/${team.member.id}`), 200);
    expectStatus(await team.as.admin.patch(`/api/cards/${b.id}`, { archived: true }), 200);
    const bBefore = await getCard(team.as.admin, b.id);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.observer.id}`));
    const aAfter = await getCard(team.as.admin, a.id);
    expect(aAfter.memberIds).toEqual([team.member.id]);
    const bAfter = await getCard(team.as.admin, b.id);
    expect(bAfter.memberIds).toEqual([]);
    expect(bAfter.version).toBeGreaterThan(bBefore.version);
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards).toEqual([summaryOf(aAfter)]);
    const archived = (await team.as.admin.get(`/api/boards/${team.board.id}/archived`)).json();
    expect(archived.cards.find((c: any) => c.id === b.id)).toEqual(summaryOf(bAfter));
  });
});

describe('summaries agree with the full card', () => {
  it('every card in the board fetch equals its GET /cards/{id} minus checklists, comments and attachments', async () => {
    const team = await makeTeam(t, { cards: 2 });
    await dressedCard(team);
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const other = await makeCard(team.as.member, doing.id, 'Other');
    await makeComment(team.as.observer, other.id, 'hello');
    const cl = await makeChecklist(team.as.member, other.id);
    await makeItem(team.as.member, cl.id, 'done', true);
    const board = await fetchBoard(team.as.observer, team.board.id);
    const summaries = board.lists.flatMap((l: any) => l.cards);
    expect(summaries).toHaveLength(4);
    for (const s of summaries) {
      expect(Object.keys(s).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
      expect(s).toEqual(summaryOf(await getCard(team.as.observer, s.id)));
    }
  });

  it('archived cards, and cards of archived lists, carry the same summary in GET /boards/{id}/archived', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { archived: true }), 200);
    const shelf = await makeList(team.as.admin, team.board.id, 'Shelf');
    const shelved = await makeCard(team.as.admin, shelf.id, 'Shelved');
    await makeComment(team.as.admin, shelved.id, 'before shelving');
    expectStatus(await team.as.admin.put(`/api/cards/${shelved.id}/labels/${(await fetchBoard(team.as.admin, team.board.id)).labels[0].id}`), 200);
    expectStatus(await team.as.admin.patch(`/api/lists/${shelf.id}`, { archived: true }), 200);
    const res = await team.as.admin.get(`/api/boards/${team.board.id}/archived`);
    expectStatus(res, 200);
    const archived = res.json();
    const found = archived.cards.find((c: any) => c.id === card.id);
    expect(found).toEqual(summaryOf(await getCard(team.as.admin, card.id)));
    for (const c of archived.cards) {
      expect(Object.keys(c).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
      expect(c).toEqual(summaryOf(await getCard(team.as.admin, c.id)));
    }
  });

  it('GET /cards/{id} equals the reference presenter applied to the Prisma rows', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    for (let i = 0; i < 3; i++) await makeComment(team.as.member, card.id, `comment "${i}" ünïcode\nline`);
    const date = await makeField(team.as.admin, team.board.id, 'date');
    const num = await makeField(team.as.admin, team.board.id, 'number');
    const box = await makeField(team.as.admin, team.board.id, 'checkbox');
    await setField(team.as.member, card.id, date.id, '2030-01-02T05:04:05+02:00');
    await setField(team.as.member, card.id, num.id, 2.5);
    await setField(team.as.member, card.id, box.id, false);
    expectStatus(await team.as.member.patch(`/api/cards/${card.id}`, { dueAt: '2031-02-03T04:05:06.789Z' }), 200);
    const viaHttp = await getCard(team.as.observer, card.id);
    const row = await t.db.prisma.card.findUniqueOrThrow({ where: { id: card.id }, include: fullCardInclude });
    expect(viaHttp).toEqual(JSON.parse(JSON.stringify(presentCard(row as any))));
  });

  it('a card with nothing on it equals the reference presenter too', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const viaHttp = await getCard(team.as.admin, team.cards[0].id);
    const row = await t.db.prisma.card.findUniqueOrThrow({ where: { id: team.cards[0].id }, include: fullCardInclude });
    expect(viaHttp).toEqual(JSON.parse(JSON.stringify(presentCard(row as any))));
  });
});

describe('deleting a card takes its parts along', () => {
  it('its comments, checklists and items are gone (404)', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    expectNoContent(await team.as.admin.del(`/api/cards/${card.id}`));
    const comment = card.comments[0];
    const checklist = card.checklists[0];
    expectStatus(await team.as.admin.patch(`/api/comments/${comment.id}`, { text: 'x' }), 404);
    expectStatus(await team.as.admin.patch(`/api/checklists/${checklist.id}`, { name: 'x' }), 404);
    expectStatus(await team.as.admin.patch(`/api/items/${checklist.items[0].id}`, { checked: false }), 404);
    expectStatus(await team.as.admin.get(`/api/cards/${card.id}/comments`), 404);
  });
});

describe('more moves and deletions', () => {
  it("a list moved to another board takes its archived cards along, fitted the same way", async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    expectStatus(await team.as.admin.patch(`/api/cards/${card.id}`, { archived: true }), 200);
    const target = await makeBoard(t.db, team.admin.id);
    expectStatus(await team.as.admin.post(`/api/lists/${team.list.id}/move`, { boardId: target.id, position: 0 }), 200);
    const now = await getCard(team.as.admin, card.id);
    expect(now).toMatchObject({ boardId: target.id, archived: true, fieldValues: {}, memberIds: [team.admin.id] });
    expect(await labelsNamed(team.as.admin, target.id, now.labelIds)).toEqual(['Bug/red', 'Ops/null']);
    const archived = (await team.as.admin.get(`/api/boards/${target.id}/archived`)).json();
    expect(archived.cards.find((c: any) => c.id === card.id)).toEqual(summaryOf(now));
  });

  it('a label put on the moved card on its new board works there, and the old board label is refused', async () => {
    const team = await makeTeam(t);
    const { card, labels } = await dressedCard(team);
    const target = await makeBoard(t.db, team.admin.id);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const newLabel = await makeLabel(team.as.admin, target.id, 'There');
    expectStatus(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id }), 200);
    expect(expectCardResponse(await team.as.admin.put(`/api/cards/${card.id}/labels/${newLabel.id}`), 200).labelIds).toContain(newLabel.id);
    const res = await team.as.admin.put(`/api/cards/${card.id}/labels/${labels[0].id}`);
    expectStatus(res, 400);
    expect(res.json().error).toMatch(/^labelId: /);
  });

  it('deleting a board with every kind of card part is 204, and its parts are gone', async () => {
    const team = await makeTeam(t);
    const { card, labels, fields } = await dressedCard(team);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}`));
    expectStatus(await team.as.admin.get(`/api/cards/${card.id}`), 404);
    expectStatus(await team.as.admin.patch(`/api/labels/${labels[0].id}`, { name: 'x' }), 404);
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${fields.text.id}`, { name: 'x' }), 404);
    expectStatus(await team.as.admin.patch(`/api/items/${card.checklists[0].items[0].id}`, { checked: false }), 404);
  });

  it('moving a card away and then fetching the old board shows neither the card nor its parts', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const target = await makeBoard(t.db, team.admin.id);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    expectStatus(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id }), 200);
    const old = await fetchBoard(team.as.admin, team.board.id);
    expect(old.lists[0].cards).toEqual([]);
    const res = await team.as.admin.get(`/api/boards/${team.board.id}/search?q=dressed`);
    expectStatus(res, 200);
    expect(res.json().cards).toEqual([]);
  });
});

describe('races between parts and the things they refer to', () => {
  it('a label deleted while it is being put on cards ends on no card', async () => {
    const team = await makeTeam(t, { cards: 4 });
    for (let round = 0; round < 3; round++) {
      const label = await makeLabel(team.as.admin, team.board.id, `race ${round}`);
      const results = await Promise.all([
        ...team.cards.map((c: any) => team.as.member.put(`/api/cards/${c.id}/labels/${label.id}`)),
        team.as.admin.del(`/api/labels/${label.id}`),
      ]);
      for (const r of results) expect([200, 204, 400, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      for (const c of team.cards) expect((await getCard(team.as.admin, c.id)).labelIds).not.toContain(label.id);
    }
  });

  it('a field deleted while values are being set ends with no value on any card', async () => {
    const team = await makeTeam(t, { cards: 4 });
    for (let round = 0; round < 3; round++) {
      const field = await makeField(team.as.admin, team.board.id, 'text', undefined, `race ${round}`);
      const results = await Promise.all([
        ...team.cards.map((c: any) => team.as.member.put(`/api/cards/${c.id}/fields/${field.id}`, { value: 'x' })),
        team.as.admin.del(`/api/custom-fields/${field.id}`),
      ]);
      for (const r of results) expect([200, 204, 400, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      for (const c of team.cards) expect(String(field.id) in (await getCard(team.as.admin, c.id)).fieldValues).toBe(false);
    }
  });

  it('a member removed while being assigned ends on no card of the board', async () => {
    const team = await makeTeam(t, { cards: 4 });
    for (let round = 0; round < 3; round++) {
      const user = await makeUser(t.db);
      expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: user.email, role: 'member' }), 201);
      const results = await Promise.all([
        ...team.cards.map((c: any) => team.as.member.put(`/api/cards/${c.id}/members/${user.id}`)),
        team.as.admin.del(`/api/boards/${team.board.id}/members/${user.id}`),
      ]);
      for (const r of results) expect([200, 204, 400, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      for (const c of team.cards) expect((await getCard(team.as.admin, c.id)).memberIds).not.toContain(user.id);
    }
  });

  it('a card moved to another board while labels and values of the old board are put on it keeps none of the old board’s', async () => {
    const team = await makeTeam(t);
    const target = await makeBoard(t.db, team.admin.id);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const label = await makeLabel(team.as.admin, team.board.id, 'Old');
    const field = await makeField(team.as.admin, team.board.id, 'number');
    for (let round = 0; round < 3; round++) {
      const card = await makeCard(team.as.admin, team.list.id, `racer ${round}`);
      const results = await Promise.all([
        team.as.admin.put(`/api/cards/${card.id}/labels/${label.id}`),
        team.as.admin.put(`/api/cards/${card.id}/fields/${field.id}`, { value: round }),
        team.as.admin.put(`/api/cards/${card.id}/members/${team.member.id}`),
        team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id }),
      ]);
      for (const r of results) expect([200, 400, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      const now = await getCard(team.as.admin, card.id);
      if (now.boardId === target.id) {
        // A label of the old board on it became the new board's label of that name and colour (#46): none of the old board's.
        const targetLabels = (await fetchBoard(team.as.admin, target.id)).labels.map((l: { id: number }) => l.id);
        expect(now.labelIds.filter((id: number) => !targetLabels.includes(id))).toEqual([]);
        expect(now.labelIds).not.toContain(label.id);
        expect(now.fieldValues).toEqual({});
        expect(now.memberIds).not.toContain(team.member.id);
      }
    }
  });
});

describe('activities about card parts', () => {
  it('every one names its cardId, and every data.card is a card summary, never a full card', async () => {
    const team = await makeTeam(t);
    const { card } = await dressedCard(team);
    const item = card.checklists[0].items[0];
    expectStatus(await team.as.admin.patch(`/api/items/${item.id}`, { checked: false, name: 'renamed' }), 200);
    expectStatus(await team.as.admin.patch(`/api/comments/${card.comments[1].id}`, { text: 'edited' }), 200);
    expectNoContent(await team.as.admin.del(`/api/comments/${card.comments[0].id}`));
    expectNoContent(await team.as.admin.del(`/api/cards/${card.id}/labels/${card.labelIds[0]}`));
    expectNoContent(await team.as.admin.del(`/api/cards/${card.id}/members/${team.member.id}`));
    await setField(team.as.admin, card.id, Number(Object.keys(card.fieldValues)[0]), null);
    expectStatus(await team.as.admin.post(`/api/items/${card.checklists[1].items[0].id}/convert`), 201);
    expectNoContent(await team.as.admin.del(`/api/items/${card.checklists[0].items[1].id}`));
    expectNoContent(await team.as.admin.del(`/api/checklists/${card.checklists[0].id}`));

    const res = await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=200`);
    expectStatus(res, 200);
    const acts = res.json().activities;
    const onCard = acts.filter((a: any) => /^(card\.(label|member|field)|checklist\.|item\.|comment\.)/.test(a.type));
    const types = new Set(onCard.map((a: any) => a.type));
    for (const type of ['card.label_added', 'card.label_removed', 'card.member_added', 'card.member_removed', 'card.field_set', 'checklist.created', 'item.created', 'item.updated', 'item.converted', 'comment.created', 'comment.updated', 'comment.deleted']) {
      expect(types, type).toContain(type);
    }
    for (const a of onCard) expect(a.data.cardId, a.type).toBe(card.id);
    for (const a of acts) {
      if (a.data.card === undefined) continue;
      expect(Object.keys(a.data.card).sort(), a.type).toEqual([...CARD_SUMMARY_KEYS].sort());
    }
  });
});

describe('a label shade on a move to another board', () => {
  it('goes with the label made there (Trello’s blue_dark stays blue + dark)', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Shaded');
    const res = await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'Deep', color: 'blue', shade: 'dark' });
    expectStatus(res, 201);
    expectStatus(await team.as.admin.put(`/api/cards/${card.id}/labels/${res.json().id}`), 200);
    const target = await makeBoard(t.db, team.admin.id);
    const targetList = await makeList(team.as.admin, target.id, 'Inbox');
    const moved = expectCardResponse(await team.as.admin.post(`/api/cards/${card.id}/move`, { listId: targetList.id, position: 0 }), 200);
    const labels = (await fetchBoard(team.as.admin, target.id)).labels;
    expect(labels.filter((l: { id: number }) => moved.labelIds.includes(l.id))).toEqual([expect.objectContaining({ name: 'Deep', color: 'blue', shade: 'dark' })]);
  });
});
