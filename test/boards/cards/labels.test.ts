import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  boardActivities,
  CARD_SUMMARY_KEYS,
  client,
  expectCardResponse,
  expectError,
  expectFieldError,
  expectNoContent,
  expectStatus,
  fetchBoard,
  getCard,
  lastActivity,
  makeCard,
  makeLabel,
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { makeBoard, makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Labels: a board's labels, and labels on cards (SPEC §3, labels). */
const t = useTestApp(BOARD_TEST_ENV);

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('POST /api/boards/{id}/labels', () => {
  it('creates a label (201 with exactly id, boardId, name, color, shade) for an admin or a member', async () => {
    const team = await makeTeam(t);
    const res = await team.as.member.post(`/api/boards/${team.board.id}/labels`, { name: 'Bug', color: 'red' });
    expectStatus(res, 201);
    const label = res.json();
    expect(label).toEqual({ id: expect.any(Number), boardId: team.board.id, name: 'Bug', color: 'red', shade: null });
    const byAdmin = await makeLabel(team.as.admin, team.board.id, 'Feature', 'blue');
    expect(byAdmin).toMatchObject({ boardId: team.board.id, name: 'Feature', color: 'blue' });
  });

  it('trims the name, makes an omitted color null and takes an explicit null', async () => {
    const team = await makeTeam(t);
    const omitted = await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: '  Later  ' });
    expectStatus(omitted, 201);
    expect(omitted.json()).toMatchObject({ name: 'Later', color: null });
    const explicit = await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'Plain', color: null });
    expectStatus(explicit, 201);
    expect(explicit.json().color).toBeNull();
  });

  it.each(['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black'])('takes the color %s', async (color) => {
    const team = await makeTeam(t);
    expect((await makeLabel(team.as.admin, team.board.id, color, color)).color).toBe(color);
  });

  it('takes names of 1 and 100 characters', async () => {
    const team = await makeTeam(t);
    expect((await makeLabel(team.as.admin, team.board.id, 'x')).name).toBe('x');
    expect((await makeLabel(team.as.admin, team.board.id, 'n'.repeat(100))).name).toHaveLength(100);
  });

  it.each([
    ['a missing name', { color: 'red' }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of spaces only', { name: '   ' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a name that is not a string', { name: 5 }, 'name'],
    ['an unknown color', { name: 'x', color: 'magenta' }, 'color'],
    ['a color in capitals', { name: 'x', color: 'RED' }, 'color'],
    ['a color that is not a string', { name: 'x', color: 3 }, 'color'],
    ['an unknown field', { name: 'x', colour: 'red' }, 'colour'],
  ])('refuses %s with 400 naming the field, creating nothing', async (_what, payload, field) => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/labels`, payload), field);
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([]);
  });

  it('is 403 to an observer, 404 to a stranger and for a missing board, 401 without a credential', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.observer.post(`/api/boards/${team.board.id}/labels`, { name: 'x' }), 403);
    expectError(await team.as.stranger.post(`/api/boards/${team.board.id}/labels`, { name: 'x' }), 404);
    expectError(await team.as.admin.post('/api/boards/999999/labels', { name: 'x' }), 404);
    expectError(await client(t.app, {}).post(`/api/boards/${team.board.id}/labels`, { name: 'x' }), 401);
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([]);
  });

  it('is 403 to a read-only key (before 404) and 404 to a key limited to other boards', async () => {
    const team = await makeTeam(t);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.post(`/api/boards/${team.board.id}/labels`, { name: 'x' }), 403);
    expectError(await readOnly.post('/api/boards/999999/labels', { name: 'x' }), 403);
    const other = await makeBoard(t.db, team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [other.id] })).auth);
    expectError(await limited.post(`/api/boards/${team.board.id}/labels`, { name: 'x' }), 404);
    expectStatus(await limited.post(`/api/boards/${other.id}/labels`, { name: 'x' }), 201);
  });

  it('records label.created with labelId and the label', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.member, team.board.id, 'Bug', 'red');
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ boardId: team.board.id, type: 'label.created', actor: { userId: team.member.id }, data: { labelId: label.id, label } });
  });
});

describe('the board fetch', () => {
  it('lists the labels ordered by id', async () => {
    const team = await makeTeam(t);
    const made = [];
    for (const [name, color] of [['c', 'red'], ['a', null], ['b', 'sky']] as const) made.push(await makeLabel(team.as.admin, team.board.id, name, color));
    const board = await fetchBoard(team.as.observer, team.board.id);
    expect(board.labels).toEqual(made.sort((x, y) => x.id - y.id));
  });

  it("shows only the board's own labels", async () => {
    const team = await makeTeam(t);
    const other = await makeBoard(t.db, team.admin.id);
    const mine = await makeLabel(team.as.admin, team.board.id, 'mine');
    await makeLabel(team.as.admin, other.id, 'theirs');
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([mine]);
  });
});

describe('PATCH /api/labels/{id}', () => {
  it('renames and recolors a label (200 with the label) and records label.updated', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const res = await team.as.member.patch(`/api/labels/${label.id}`, { name: ' Defect ', color: 'orange' });
    expectStatus(res, 200);
    expect(res.json()).toEqual({ id: label.id, boardId: team.board.id, name: 'Defect', color: 'orange', shade: null });
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'label.updated', data: { labelId: label.id, label: res.json() } });
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([res.json()]);

    const onlyColor = await team.as.admin.patch(`/api/labels/${label.id}`, { color: null });
    expectStatus(onlyColor, 200);
    expect(onlyColor.json()).toEqual({ id: label.id, boardId: team.board.id, name: 'Defect', color: null, shade: null });
  });

  it('refuses a bad name or color with 400 naming the field', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectFieldError(await team.as.admin.patch(`/api/labels/${label.id}`, { color: 'teal' }), 'color');
    expectFieldError(await team.as.admin.patch(`/api/labels/${label.id}`, { name: '' }), 'name');
    expectFieldError(await team.as.admin.patch(`/api/labels/${label.id}`, { name: 'n'.repeat(101) }), 'name');
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([label]);
  });

  it('is 403 to an observer, 404 to a stranger and for a missing label', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectError(await team.as.observer.patch(`/api/labels/${label.id}`, { name: 'x' }), 403);
    expectError(await team.as.stranger.patch(`/api/labels/${label.id}`, { name: 'x' }), 404);
    expectError(await team.as.admin.patch('/api/labels/999999', { name: 'x' }), 404);
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([label]);
  });
});

describe('DELETE /api/labels/{id}', () => {
  it('deletes the label (204), takes it off every card (their version grows), records label.deleted', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const bug = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const keep = await makeLabel(team.as.admin, team.board.id, 'Keep', 'blue');
    const other = await makeList(team.as.admin, team.board.id, 'Other');
    const d = await makeCard(team.as.admin, other.id, 'd');
    for (const card of [a, b, d]) expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${bug.id}`), 200);
    expectStatus(await team.as.member.put(`/api/cards/${b.id}/labels/${keep.id}`), 200);
    const before = new Map<number, any>();
    for (const card of [a, b, c, d]) before.set(card.id, await getCard(team.as.admin, card.id));

    expectNoContent(await team.as.member.del(`/api/labels/${bug.id}`));

    for (const card of [a, b, d]) {
      const now = await getCard(team.as.admin, card.id);
      expect(now.labelIds).not.toContain(bug.id);
      expect(now.version).toBeGreaterThan(before.get(card.id).version);
    }
    expect((await getCard(team.as.admin, b.id)).labelIds).toEqual([keep.id]);
    expect((await getCard(team.as.admin, c.id)).version).toBe(before.get(c.id).version);
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.labels).toEqual([keep]);
    for (const list of board.lists) for (const card of list.cards) expect(card.labelIds).not.toContain(bug.id);
    const acts = await boardActivities(team.as.admin, team.board.id);
    expect(acts.find((x) => x.type === 'label.deleted')).toMatchObject({ data: { labelId: bug.id } });

    expectError(await team.as.member.del(`/api/labels/${bug.id}`), 404);
    expectError(await team.as.member.patch(`/api/labels/${bug.id}`, { name: 'x' }), 404);
    expectFieldError(await team.as.member.put(`/api/cards/${c.id}/labels/${bug.id}`), 'labelId');
  });

  it('is 403 to an observer and 404 to a stranger; the label stays', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectError(await team.as.observer.del(`/api/labels/${label.id}`), 403);
    expectError(await team.as.stranger.del(`/api/labels/${label.id}`), 404);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.del(`/api/labels/${label.id}`), 403);
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([label]);
  });
});

describe('PUT /api/cards/{id}/labels/{labelId}', () => {
  it('puts a label on a card (200 with the full card); the version grows', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const res = await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`);
    const after = expectCardResponse(res, 200);
    expect(after.labelIds).toEqual([label.id]);
    expect(after.version).toBeGreaterThan(card.version);
    expect(await getCard(team.as.observer, card.id)).toEqual(after);
  });

  it('is idempotent: a repeat answers 200 with the same version and records nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const first = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    const count = (await boardActivities(team.as.admin, team.board.id)).length;
    const again = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    expect(again.version).toBe(first.version);
    expect(again.labelIds).toEqual([label.id]);
    expect((await boardActivities(team.as.admin, team.board.id)).length).toBe(count);
  });

  it('holds several labels, each once', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const labels = [];
    for (const n of ['a', 'b', 'c']) labels.push(await makeLabel(team.as.admin, team.board.id, n));
    for (const l of [labels[2], labels[0], labels[1], labels[0]]) expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${l.id}`), 200);
    const now = await getCard(team.as.admin, card.id);
    expect(sorted(now.labelIds)).toEqual(sorted(labels.map((l) => l.id)));
    expect(now.labelIds).toHaveLength(3);
  });

  it('records card.label_added with cardId, labelId and the card summary', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const after = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'card.label_added', actor: { userId: team.member.id }, data: { cardId: card.id, labelId: label.id } });
    expect(Object.keys(a.data.card).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
    expect(a.data.card).toMatchObject({ id: card.id, labelIds: [label.id], version: after.version });
  });

  it('refuses a label of another board or one that does not exist with 400 naming labelId', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const other = await makeBoard(t.db, team.admin.id);
    const foreign = await makeLabel(team.as.admin, other.id, 'Foreign');
    expectFieldError(await team.as.admin.put(`/api/cards/${card.id}/labels/${foreign.id}`), 'labelId');
    expectFieldError(await team.as.admin.put(`/api/cards/${card.id}/labels/999999`), 'labelId');
    const now = await getCard(team.as.admin, card.id);
    expect(now.labelIds).toEqual([]);
    expect(now.version).toBe(card.version);
  });

  it('is 403 to an observer and a read-only key, 404 to a stranger and for a missing card', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectError(await team.as.observer.put(`/api/cards/${card.id}/labels/${label.id}`), 403);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.put(`/api/cards/${card.id}/labels/${label.id}`), 403);
    expectError(await team.as.stranger.put(`/api/cards/${card.id}/labels/${label.id}`), 404);
    expectError(await team.as.admin.put(`/api/cards/999999/labels/${label.id}`), 404);
    expect((await getCard(team.as.admin, card.id)).labelIds).toEqual([]);
  });
});

describe('DELETE /api/cards/{id}/labels/{labelId}', () => {
  it('takes a label off (204), records card.label_removed; a repeat is 204 and records nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const bug = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const keep = await makeLabel(team.as.admin, team.board.id, 'Keep', 'blue');
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${bug.id}`), 200);
    const withBoth = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/labels/${keep.id}`), 200);

    expectNoContent(await team.as.member.del(`/api/cards/${card.id}/labels/${bug.id}`));
    const after = await getCard(team.as.admin, card.id);
    expect(after.labelIds).toEqual([keep.id]);
    expect(after.version).toBeGreaterThan(withBoth.version);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'card.label_removed', data: { cardId: card.id, labelId: bug.id, card: { id: card.id, labelIds: [keep.id] } } });

    const count = (await boardActivities(team.as.admin, team.board.id)).length;
    expectNoContent(await team.as.member.del(`/api/cards/${card.id}/labels/${bug.id}`));
    expect((await getCard(team.as.admin, card.id)).version).toBe(after.version);
    expect((await boardActivities(team.as.admin, team.board.id)).length).toBe(count);
  });

  it('is 403 to an observer and 404 to a stranger; the label stays on', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    expectError(await team.as.observer.del(`/api/cards/${card.id}/labels/${label.id}`), 403);
    expectError(await team.as.stranger.del(`/api/cards/${card.id}/labels/${label.id}`), 404);
    expect((await getCard(team.as.admin, card.id)).labelIds).toEqual([label.id]);
  });
});

describe('labels in the board fetch and the archive', () => {
  it('shows labelIds on every card summary as GET /cards/{id} does', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectStatus(await team.as.member.put(`/api/cards/${team.cards[1].id}/labels/${label.id}`), 200);
    const board = await fetchBoard(team.as.admin, team.board.id);
    const [first, second] = board.lists[0].cards;
    expect(first.labelIds).toEqual([]);
    expect(second.labelIds).toEqual([label.id]);
  });

  it('keeps the labels of an archived card, shown in GET /boards/{id}/archived', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    expectStatus(await team.as.member.patch(`/api/cards/${card.id}`, { archived: true }), 200);
    const res = await team.as.admin.get(`/api/boards/${team.board.id}/archived`);
    expectStatus(res, 200);
    expect(res.json().cards.find((c: any) => c.id === card.id).labelIds).toEqual([label.id]);
  });
});

describe('labels under concurrent requests', () => {
  it('the same PUT sent six times at once: all 200, the label once, one card.label_added', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    const results = await Promise.all(Array.from({ length: 6 }, () => team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`)));
    for (const r of results) expect(expectCardResponse(r, 200).labelIds).toEqual([label.id]);
    const now = await getCard(team.as.admin, card.id);
    expect(now.labelIds).toEqual([label.id]);
    const added = (await boardActivities(team.as.admin, team.board.id)).filter((a) => a.type === 'card.label_added');
    expect(added).toHaveLength(1);
  });

  it('five different labels put at once: all land, each change its own version', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const labels = [];
    for (let i = 0; i < 5; i++) labels.push(await makeLabel(team.as.admin, team.board.id, `l${i}`));
    const results = await Promise.all(labels.map((l) => team.as.member.put(`/api/cards/${card.id}/labels/${l.id}`)));
    const versions = results.map((r) => expectCardResponse(r, 200).version);
    expect(new Set(versions).size).toBe(5);
    const now = await getCard(team.as.admin, card.id);
    expect(sorted(now.labelIds)).toEqual(sorted(labels.map((l) => l.id)));
    expect(now.version).toBe(Math.max(...versions));
    expect(now.version - card.version).toBeGreaterThanOrEqual(5);
  });

  it('refuses path ids that are not ids with 400', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/labels/abc`), 400);
    expectError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/labels/0`), 400);
    expectError(await team.as.admin.patch('/api/labels/abc', { name: 'x' }), 400);
  });

  it('an archived card keeps its label until the label is deleted', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    expectStatus(await team.as.member.patch(`/api/cards/${card.id}`, { archived: true }), 200);
    const before = await getCard(team.as.admin, card.id);
    expectNoContent(await team.as.admin.del(`/api/labels/${label.id}`));
    const after = await getCard(team.as.admin, card.id);
    expect(after.labelIds).toEqual([]);
    expect(after.version).toBeGreaterThan(before.version);
  });
});

describe('labels: unknown fields', () => {
  it('PATCH refuses an unknown field with 400 naming it', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id, 'Bug', 'red');
    expectFieldError(await team.as.admin.patch(`/api/labels/${label.id}`, { name: 'x', boardId: 1 }), 'boardId');
    expect((await fetchBoard(team.as.admin, team.board.id)).labels).toEqual([label]);
  });
});

describe('label shades (Trello\'s 30 colours: ten colours, plain, light or dark)', () => {
  it('creates a label with a shade, changes it, keeps it when only the colour changes, and drops it with the colour', async () => {
    const team = await makeTeam(t);
    const res = await team.as.member.post(`/api/boards/${team.board.id}/labels`, { name: 'Deep', color: 'blue', shade: 'dark' });
    expectStatus(res, 201);
    const label = res.json();
    expect(label).toMatchObject({ color: 'blue', shade: 'dark' });
    expect((await team.as.member.get(`/api/labels/${label.id}`)).json()).toMatchObject({ color: 'blue', shade: 'dark' });
    expect((await fetchBoard(team.as.member, team.board.id)).labels.find((l: { id: number }) => l.id === label.id)).toMatchObject({ shade: 'dark' });

    const light = await team.as.member.patch(`/api/labels/${label.id}`, { shade: 'light' });
    expectStatus(light, 200);
    expect(light.json()).toMatchObject({ color: 'blue', shade: 'light' });
    const green = await team.as.member.patch(`/api/labels/${label.id}`, { color: 'green' });
    expect(green.json()).toMatchObject({ color: 'green', shade: 'light' });
    const plain = await team.as.member.patch(`/api/labels/${label.id}`, { shade: null });
    expect(plain.json()).toMatchObject({ color: 'green', shade: null });
    await team.as.member.patch(`/api/labels/${label.id}`, { shade: 'dark' });
    const none = await team.as.member.patch(`/api/labels/${label.id}`, { color: null });
    expect(none.json()).toMatchObject({ color: null, shade: null });
    expect((await lastActivity(team.as.admin, team.board.id)).data.label).toMatchObject({ color: null, shade: null });
  });

  it('refuses an unknown shade, and a shade on a label without a colour (400, nothing written)', async () => {
    const team = await makeTeam(t);
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'X', color: 'blue', shade: 'medium' }), 'shade');
    expectFieldError(await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'X', color: 'blue_dark' }), 'color');
    expectError(await team.as.admin.post(`/api/boards/${team.board.id}/labels`, { name: 'X', shade: 'dark' }), 400, /shade: a label without a colour has no shade/);
    const plain = await makeLabel(team.as.admin, team.board.id, 'Plain', null);
    expectError(await team.as.admin.patch(`/api/labels/${plain.id}`, { shade: 'light' }), 400, /shade: a label without a colour has no shade/);
    expectFieldError(await team.as.admin.patch(`/api/labels/${plain.id}`, { shade: 'pale' }), 'shade');
    expect((await fetchBoard(team.as.admin, team.board.id)).labels.map((l: { name: string }) => l.name)).toEqual(['Plain']);
  });
});
