import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  boardActivities,
  CARD_SUMMARY_KEYS,
  type Client,
  cardIdsOfList,
  client,
  expectCardResponse,
  expectCompactPositions,
  expectError,
  expectFieldError,
  expectNoContent,
  expectStatus,
  fetchBoard,
  getCard,
  lastActivity,
  makeChecklist,
  makeItem,
  makeTeam,
} from '../../board-factories.js';
import { makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Checklists and their items, item conversion to a card (SPEC §3, checklists). */
const t = useTestApp(BOARD_TEST_ENV);

/** The items of one checklist of a card, as GET /cards/{id} shows them (positions 0..n-1). */
async function itemsOf(api: Client, cardId: number, checklistId: number) {
  const card = await getCard(api, cardId);
  const list = card.checklists.find((l: any) => l.id === checklistId);
  expect(list, `checklist ${checklistId} on card ${cardId}`).toBeDefined();
  expectCompactPositions(list.items);
  return list.items;
}
const teamWithCard = (cards = 1) => makeTeam(t, { cards });

describe('POST /api/cards/{id}/checklists', () => {
  it('creates a checklist (201 with id, cardId, name, position, items []), positions in creation order', async () => {
    const team = await teamWithCard();
    const card = team.cards[0];
    const res = await team.as.member.post(`/api/cards/${card.id}/checklists`, { name: 'Launch' });
    expectStatus(res, 201);
    expect(res.json()).toEqual({ id: expect.any(Number), cardId: card.id, name: 'Launch', position: 0, items: [] });
    const second = await makeChecklist(team.as.admin, card.id, 'Second');
    const third = await makeChecklist(team.as.admin, card.id, 'Third');
    expect([second.position, third.position]).toEqual([1, 2]);
    const full = await getCard(team.as.observer, card.id);
    expect(full.checklists).toEqual([res.json(), second, third]);
    expect(full.version).toBeGreaterThan(card.version);
  });

  it('records checklist.created with cardId, checklistId and the checklist', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.member, team.cards[0].id, 'Launch');
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'checklist.created', actor: { userId: team.member.id }, data: { cardId: team.cards[0].id, checklistId: list.id, checklist: list } });
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: '' }],
    ['a name of 101 characters', { name: 'n'.repeat(101) }],
    ['a name that is not a string', { name: 1 }],
  ])('refuses %s with 400 naming name', async (_what, payload) => {
    const team = await teamWithCard();
    expectFieldError(await team.as.admin.post(`/api/cards/${team.cards[0].id}/checklists`, payload), 'name');
    expect((await getCard(team.as.admin, team.cards[0].id)).checklists).toEqual([]);
  });

  it('takes names of 1 and 100 characters', async () => {
    const team = await teamWithCard();
    expect((await makeChecklist(team.as.admin, team.cards[0].id, 'x')).name).toBe('x');
    expect((await makeChecklist(team.as.admin, team.cards[0].id, 'n'.repeat(100))).name).toHaveLength(100);
  });

  it('is 403 to an observer and a read-only key, 404 to a stranger and for a missing card', async () => {
    const team = await teamWithCard();
    const url = `/api/cards/${team.cards[0].id}/checklists`;
    expectError(await team.as.observer.post(url, { name: 'x' }), 403);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.post(url, { name: 'x' }), 403);
    expectError(await team.as.stranger.post(url, { name: 'x' }), 404);
    expectError(await team.as.admin.post('/api/cards/999999/checklists', { name: 'x' }), 404);
    expect((await getCard(team.as.admin, team.cards[0].id)).checklists).toEqual([]);
  });
});

describe('PATCH and DELETE /api/checklists/{id}', () => {
  it('renames a checklist (200 with the checklist); the card version grows', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id, 'Old');
    await makeItem(team.as.admin, list.id, 'i');
    const before = await getCard(team.as.admin, team.cards[0].id);
    const res = await team.as.member.patch(`/api/checklists/${list.id}`, { name: 'New' });
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({ id: list.id, cardId: team.cards[0].id, name: 'New', position: 0 });
    const after = await getCard(team.as.admin, team.cards[0].id);
    expect(after.checklists[0].name).toBe('New');
    expect(after.version).toBeGreaterThan(before.version);
    expectFieldError(await team.as.member.patch(`/api/checklists/${list.id}`, { name: '' }), 'name');
    expectError(await team.as.observer.patch(`/api/checklists/${list.id}`, { name: 'x' }), 403);
    expectError(await team.as.stranger.patch(`/api/checklists/${list.id}`, { name: 'x' }), 404);
    expectError(await team.as.admin.patch('/api/checklists/999999', { name: 'x' }), 404);
  });

  it('deletes a checklist with its items (204); the counts drop, the other checklists close up', async () => {
    const team = await teamWithCard();
    const card = team.cards[0];
    const a = await makeChecklist(team.as.admin, card.id, 'A');
    const b = await makeChecklist(team.as.admin, card.id, 'B');
    const c = await makeChecklist(team.as.admin, card.id, 'C');
    await makeItem(team.as.admin, a.id, 'a1', true);
    await makeItem(team.as.admin, b.id, 'b1', true);
    await makeItem(team.as.admin, b.id, 'b2');
    await makeItem(team.as.admin, c.id, 'c1');
    const before = await getCard(team.as.admin, card.id);
    expect(before.checklistItems).toEqual({ total: 4, checked: 2 });

    expectError(await team.as.observer.del(`/api/checklists/${b.id}`), 403);
    expectError(await team.as.stranger.del(`/api/checklists/${b.id}`), 404);
    expectNoContent(await team.as.member.del(`/api/checklists/${b.id}`));
    const after = await getCard(team.as.admin, card.id);
    expect(after.checklistItems).toEqual({ total: 2, checked: 1 });
    expect(after.checklists.map((l: any) => l.id)).toEqual([a.id, c.id]);
    expectCompactPositions(after.checklists);
    expect(after.version).toBeGreaterThan(before.version);
    expectError(await team.as.member.del(`/api/checklists/${b.id}`), 404);
    expectError(await team.as.member.post(`/api/checklists/${b.id}/items`, { name: 'x' }), 404);
  });
});

describe('POST /api/checklists/{id}/items', () => {
  it('adds items at the end (201 with id, checklistId, name, checked, position); checked defaults to false', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const res = await team.as.member.post(`/api/checklists/${list.id}/items`, { name: 'First' });
    expectStatus(res, 201);
    expect(res.json()).toEqual({ id: expect.any(Number), checklistId: list.id, name: 'First', checked: false, position: 0 });
    const second = await makeItem(team.as.member, list.id, 'Second', true);
    expect(second).toMatchObject({ checklistId: list.id, name: 'Second', checked: true, position: 1 });
    const items = await itemsOf(team.as.admin, team.cards[0].id, list.id);
    expect(items).toEqual([res.json(), second]);
  });

  it('counts items across all checklists in the card summary, and the version grows with each', async () => {
    const team = await teamWithCard();
    const card = team.cards[0];
    const a = await makeChecklist(team.as.admin, card.id, 'A');
    const b = await makeChecklist(team.as.admin, card.id, 'B');
    let version = (await getCard(team.as.admin, card.id)).version;
    for (const [list, checked] of [[a, true], [a, false], [b, true], [b, false], [b, false]] as const) {
      await makeItem(team.as.admin, list.id, 'i', checked);
      const now = await getCard(team.as.admin, card.id);
      expect(now.version).toBeGreaterThan(version);
      version = now.version;
    }
    expect((await getCard(team.as.admin, card.id)).checklistItems).toEqual({ total: 5, checked: 2 });
    const summary = (await fetchBoard(team.as.admin, team.board.id)).lists[0].cards[0];
    expect(summary.checklistItems).toEqual({ total: 5, checked: 2 });
    expect(summary.version).toBe(version);
  });

  it('records item.created with cardId, checklistId, itemId and the item', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.member, list.id, 'Do it');
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({
      type: 'item.created',
      data: { cardId: team.cards[0].id, checklistId: list.id, itemId: item.id, item },
    });
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 513 characters', { name: 'n'.repeat(513) }, 'name'],
    ['checked that is not a boolean', { name: 'x', checked: 'yes' }, 'checked'],
    ['an unknown field', { name: 'x', done: true }, 'done'],
  ])('refuses %s with 400 naming the field', async (_what, payload, field) => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    expectFieldError(await team.as.admin.post(`/api/checklists/${list.id}/items`, payload), field);
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toEqual([]);
  });

  it('takes names of 512 characters', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    expect((await makeItem(team.as.admin, list.id, 'n'.repeat(512))).name).toHaveLength(512);
  });

  it('is 403 to an observer, 404 to a stranger and for a missing checklist', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    expectError(await team.as.observer.post(`/api/checklists/${list.id}/items`, { name: 'x' }), 403);
    expectError(await team.as.stranger.post(`/api/checklists/${list.id}/items`, { name: 'x' }), 404);
    expectError(await team.as.admin.post('/api/checklists/999999/items', { name: 'x' }), 404);
  });
});

describe('PATCH /api/items/{id}', () => {
  it('renames and checks an item (200 with the item); item.updated; counts follow', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'Old');
    const before = await getCard(team.as.admin, team.cards[0].id);
    const res = await team.as.member.patch(`/api/items/${item.id}`, { name: 'New', checked: true });
    expectStatus(res, 200);
    expect(res.json()).toEqual({ ...item, name: 'New', checked: true });
    const after = await getCard(team.as.admin, team.cards[0].id);
    expect(after.checklistItems).toEqual({ total: 1, checked: 1 });
    expect(after.version).toBeGreaterThan(before.version);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'item.updated', data: { cardId: team.cards[0].id, checklistId: list.id, itemId: item.id, item: res.json() } });
    const unchecked = await team.as.member.patch(`/api/items/${item.id}`, { checked: false });
    expect(unchecked.json()).toEqual({ ...item, name: 'New', checked: false });
    expect((await getCard(team.as.admin, team.cards[0].id)).checklistItems).toEqual({ total: 1, checked: 0 });
  });

  it('moves an item within its checklist: positions stay 0..n-1', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const [a, b, c, d] = [await makeItem(team.as.admin, list.id, 'a'), await makeItem(team.as.admin, list.id, 'b'), await makeItem(team.as.admin, list.id, 'c'), await makeItem(team.as.admin, list.id, 'd')];
    const before = await getCard(team.as.admin, team.cards[0].id);
    const moved = await team.as.member.patch(`/api/items/${a.id}`, { position: 2 });
    expectStatus(moved, 200);
    expect((await getCard(team.as.admin, team.cards[0].id)).version).toBeGreaterThan(before.version);
    expect(moved.json()).toMatchObject({ id: a.id, position: 2 });
    expect((await itemsOf(team.as.admin, team.cards[0].id, list.id)).map((i: any) => i.id)).toEqual([b.id, c.id, a.id, d.id]);
    expectStatus(await team.as.member.patch(`/api/items/${d.id}`, { position: 0 }), 200);
    expect((await itemsOf(team.as.admin, team.cards[0].id, list.id)).map((i: any) => i.id)).toEqual([d.id, b.id, c.id, a.id]);
    expectStatus(await team.as.member.patch(`/api/items/${d.id}`, { position: 3 }), 200);
    expect((await itemsOf(team.as.admin, team.cards[0].id, list.id)).map((i: any) => i.id)).toEqual([b.id, c.id, a.id, d.id]);
  });

  it.each([
    ['a position past the end', { position: 3 }, 'position'],
    ['a negative position', { position: -1 }, 'position'],
    ['a fractional position', { position: 0.5 }, 'position'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 513 characters', { name: 'n'.repeat(513) }, 'name'],
    ['checked that is not a boolean', { checked: 1 }, 'checked'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_what, payload, field) => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const items = [await makeItem(team.as.admin, list.id, 'a'), await makeItem(team.as.admin, list.id, 'b'), await makeItem(team.as.admin, list.id, 'c')];
    expectFieldError(await team.as.member.patch(`/api/items/${items[0].id}`, payload), field);
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toEqual(items);
  });

  it('is 403 to an observer, 404 to a stranger and for a missing item', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'a');
    expectError(await team.as.observer.patch(`/api/items/${item.id}`, { checked: true }), 403);
    expectError(await team.as.stranger.patch(`/api/items/${item.id}`, { checked: true }), 404);
    expectError(await team.as.admin.patch('/api/items/999999', { checked: true }), 404);
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toEqual([item]);
  });
});

describe('DELETE /api/items/{id}', () => {
  it('deletes an item (204): the rest close up, the counts drop, the version grows', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const [a, b, c] = [await makeItem(team.as.admin, list.id, 'a', true), await makeItem(team.as.admin, list.id, 'b', true), await makeItem(team.as.admin, list.id, 'c')];
    const before = await getCard(team.as.admin, team.cards[0].id);
    expectError(await team.as.observer.del(`/api/items/${b.id}`), 403);
    expectError(await team.as.stranger.del(`/api/items/${b.id}`), 404);
    expectNoContent(await team.as.member.del(`/api/items/${b.id}`));
    expect((await itemsOf(team.as.admin, team.cards[0].id, list.id)).map((i: any) => i.id)).toEqual([a.id, c.id]);
    const after = await getCard(team.as.admin, team.cards[0].id);
    expect(after.checklistItems).toEqual({ total: 2, checked: 1 });
    expect(after.version).toBeGreaterThan(before.version);
    expectError(await team.as.member.del(`/api/items/${b.id}`), 404);
  });
});

describe('POST /api/items/{id}/convert', () => {
  it('makes a new card right after the source card (201 full card); later cards shift; the item is gone', async () => {
    const team = await teamWithCard(3);
    const [a, b, c] = team.cards;
    const list = await makeChecklist(team.as.admin, b.id);
    const [i0, i1, i2] = [await makeItem(team.as.admin, list.id, 'zero'), await makeItem(team.as.admin, list.id, 'Write the docs', true), await makeItem(team.as.admin, list.id, 'two')];
    const before = await getCard(team.as.admin, b.id);

    const res = await team.as.member.post(`/api/items/${i1.id}/convert`);
    const created = expectCardResponse(res, 201);
    expect(created).toMatchObject({
      boardId: team.board.id,
      listId: team.list.id,
      title: 'Write the docs',
      position: 2,
      archived: false,
      labelIds: [],
      memberIds: [],
      fieldValues: {},
      checklistItems: { total: 0, checked: 0 },
      commentCount: 0,
      checklists: [],
      comments: [],
    });
    expect([a.id, b.id, c.id]).not.toContain(created.id);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, b.id, created.id, c.id]);
    expect((await getCard(team.as.admin, c.id)).position).toBe(3);
    expect((await itemsOf(team.as.admin, b.id, list.id)).map((i: any) => i.id)).toEqual([i0.id, i2.id]);
    const source = await getCard(team.as.admin, b.id);
    expect(source.checklistItems).toEqual({ total: 2, checked: 0 });
    expect(source.version).toBeGreaterThan(before.version);
    expect(await getCard(team.as.admin, created.id)).toEqual(created);
    expectError(await team.as.member.patch(`/api/items/${i1.id}`, { checked: false }), 404);
    expectError(await team.as.member.post(`/api/items/${i1.id}/convert`), 404);
  });

  it('from the last card puts the new card at the end', async () => {
    const team = await teamWithCard(2);
    const list = await makeChecklist(team.as.admin, team.cards[1].id);
    const item = await makeItem(team.as.admin, list.id, 'Last');
    const created = expectCardResponse(await team.as.admin.post(`/api/items/${item.id}/convert`), 201);
    expect(created.position).toBe(2);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id, team.cards[1].id, created.id]);
  });

  it('records card.created for the new card and item.converted', async () => {
    const team = await teamWithCard(1);
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'Spin off');
    const created = expectCardResponse(await team.as.member.post(`/api/items/${item.id}/convert`), 201);
    const acts = await boardActivities(team.as.admin, team.board.id, 10);
    const converted = acts.find((x) => x.type === 'item.converted');
    expect(converted).toMatchObject({ actor: { userId: team.member.id }, data: { cardId: team.cards[0].id, itemId: item.id, checklistId: list.id, newCardId: created.id } });
    const cardCreated = acts.find((x) => x.type === 'card.created' && x.data.cardId === created.id);
    expect(cardCreated).toBeDefined();
    expect(Object.keys(cardCreated.data.card).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
    expect(cardCreated.data.card).toMatchObject({ id: created.id, title: 'Spin off' });
  });

  it('refuses an item of an archived card with 400; the item stays', async () => {
    const team = await teamWithCard(1);
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'Stuck');
    expectStatus(await team.as.admin.patch(`/api/cards/${team.cards[0].id}`, { archived: true }), 200);
    expectError(await team.as.admin.post(`/api/items/${item.id}/convert`), 400);
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toEqual([item]);
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards).toEqual([]);
  });

  it('is 403 to an observer, 404 to a stranger and for a missing item', async () => {
    const team = await teamWithCard(1);
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'x');
    expectError(await team.as.observer.post(`/api/items/${item.id}/convert`), 403);
    expectError(await team.as.stranger.post(`/api/items/${item.id}/convert`), 404);
    expectError(await team.as.admin.post('/api/items/999999/convert'), 404);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id]);
  });
});

describe('checklists under concurrent requests and archived siblings', () => {
  it('eight items added at once get positions 0..7', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => team.as.member.post(`/api/checklists/${list.id}/items`, { name: `i${i}` })));
    for (const r of results) expectStatus(r, 201);
    expect(results.map((r) => r.json().position).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toHaveLength(8);
    expect((await getCard(team.as.admin, team.cards[0].id)).checklistItems).toEqual({ total: 8, checked: 0 });
  });

  it('items moved and deleted at once keep positions 0..n-1', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const items = [];
    for (let i = 0; i < 6; i++) items.push(await makeItem(team.as.admin, list.id, `i${i}`));
    const results = await Promise.all([
      team.as.member.patch(`/api/items/${items[0].id}`, { position: 5 }),
      team.as.member.patch(`/api/items/${items[5].id}`, { position: 0 }),
      team.as.member.del(`/api/items/${items[2].id}`),
      team.as.member.patch(`/api/items/${items[3].id}`, { position: 1 }),
    ]);
    for (const r of results) expect([200, 204, 400, 409]).toContain(r.statusCode);
    const now = await itemsOf(team.as.admin, team.cards[0].id, list.id);
    expect(now.map((i: any) => i.id)).not.toContain(items[2].id);
    expect(now).toHaveLength(5);
  });

  it('four items of one card converted at once: four new cards, the list stays 0..n-1', async () => {
    const team = await teamWithCard(2);
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const items = [];
    for (let i = 0; i < 4; i++) items.push(await makeItem(team.as.admin, list.id, `task ${i}`));
    const results = await Promise.all(items.map((i) => team.as.member.post(`/api/items/${i.id}/convert`)));
    const created = results.map((r) => expectCardResponse(r, 201));
    const ids = await cardIdsOfList(team.as.admin, team.board.id, team.list.id);
    expect(ids).toHaveLength(6);
    expect(ids[0]).toBe(team.cards[0].id);
    expect(ids[5]).toBe(team.cards[1].id);
    expect(ids.slice(1, 5).sort((a, b) => a - b)).toEqual(created.map((c) => c.id).sort((a, b) => a - b));
    expect(await itemsOf(team.as.admin, team.cards[0].id, list.id)).toEqual([]);
  });

  it('a converted item lands right after its card counting only non-archived cards', async () => {
    const team = await teamWithCard(4);
    const [a, x, b, c] = team.cards;
    expectStatus(await team.as.admin.patch(`/api/cards/${x.id}`, { archived: true }), 200);
    const list = await makeChecklist(team.as.admin, b.id);
    const item = await makeItem(team.as.admin, list.id, 'Follow-up');
    const created = expectCardResponse(await team.as.admin.post(`/api/items/${item.id}/convert`), 201);
    expect(created.position).toBe(2);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, b.id, created.id, c.id]);
  });

  it('an item can be added checked, and checking it twice changes the count once', async () => {
    const team = await teamWithCard();
    const list = await makeChecklist(team.as.admin, team.cards[0].id);
    const item = await makeItem(team.as.admin, list.id, 'x');
    expectStatus(await team.as.member.patch(`/api/items/${item.id}`, { checked: true }), 200);
    const once = await getCard(team.as.admin, team.cards[0].id);
    expectStatus(await team.as.member.patch(`/api/items/${item.id}`, { checked: true }), 200);
    const twice = await getCard(team.as.admin, team.cards[0].id);
    expect(twice.checklistItems).toEqual({ total: 1, checked: 1 });
    expect(twice.version).toBeGreaterThanOrEqual(once.version);
  });
});
