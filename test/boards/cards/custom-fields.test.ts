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
  makeField,
  makeTeam,
  setField,
} from '../../board-factories.js';
import { makeBoard, makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Custom fields: definitions (board admins) and values on cards (SPEC §3, custom fields). */
const t = useTestApp(BOARD_TEST_ENV);

const fieldsUrl = (boardId: number) => `/api/boards/${boardId}/custom-fields`;

describe('POST /api/boards/{id}/custom-fields', () => {
  it.each(['text', 'number', 'date', 'checkbox'])('creates a %s field (201, options [])', async (type) => {
    const team = await makeTeam(t);
    const res = await team.as.admin.post(fieldsUrl(team.board.id), { name: `My ${type}`, type });
    expectStatus(res, 201);
    expect(res.json()).toEqual({ id: expect.any(Number), boardId: team.board.id, name: `My ${type}`, type, options: [] });
  });

  it('creates a list field with its options, in the order given', async () => {
    const team = await makeTeam(t);
    const res = await team.as.admin.post(fieldsUrl(team.board.id), { name: 'Priority', type: 'list', options: ['High', 'Medium', 'Low'] });
    expectStatus(res, 201);
    expect(res.json()).toEqual({ id: expect.any(Number), boardId: team.board.id, name: 'Priority', type: 'list', options: ['High', 'Medium', 'Low'] });
  });

  it('takes 50 options of 100 characters, and names of 1 and 100 characters', async () => {
    const team = await makeTeam(t);
    const options = Array.from({ length: 50 }, (_, i) => `${i}`.padStart(100, 'o'));
    expect((await makeField(team.as.admin, team.board.id, 'list', options)).options).toEqual(options);
    expect((await makeField(team.as.admin, team.board.id, 'text', undefined, 'x')).name).toBe('x');
    expect((await makeField(team.as.admin, team.board.id, 'text', undefined, 'n'.repeat(100))).name).toHaveLength(100);
  });

  it.each([
    ['a missing name', { type: 'text' }, 'name'],
    ['an empty name', { name: '', type: 'text' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), type: 'text' }, 'name'],
    ['a missing type', { name: 'f' }, 'type'],
    ['an unknown type', { name: 'f', type: 'color' }, 'type'],
    ['a type in capitals', { name: 'f', type: 'TEXT' }, 'type'],
    ['a list without options', { name: 'f', type: 'list' }, 'options'],
    ['a list with no option', { name: 'f', type: 'list', options: [] }, 'options'],
    ['a list with 51 options', { name: 'f', type: 'list', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'options'],
    ['a list with a repeated option', { name: 'f', type: 'list', options: ['a', 'b', 'a'] }, 'options'],
    ['a list with an empty option', { name: 'f', type: 'list', options: ['a', ''] }, 'options'],
    ['a list with an option of 101 characters', { name: 'f', type: 'list', options: ['o'.repeat(101)] }, 'options'],
    ['a list with an option that is not a string', { name: 'f', type: 'list', options: ['a', 2] }, 'options'],
    ['options on a text field', { name: 'f', type: 'text', options: ['a'] }, 'options'],
    ['options on a number field', { name: 'f', type: 'number', options: ['1'] }, 'options'],
    ['an unknown field', { name: 'f', type: 'text', required: true }, 'required'],
  ])('refuses %s with 400 naming the field, creating nothing', async (_what, payload, field) => {
    const team = await makeTeam(t);
    const res = await team.as.admin.post(fieldsUrl(team.board.id), payload);
    if (field === 'options' && res.statusCode === 400 && /^options\.\d+/.test(res.json().error)) {
      // "options.1: …" names the field too.
      expectError(res, 400, /^options/);
    } else {
      expectFieldError(res, field);
    }
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([]);
  });

  it('is for board admins only: 403 to a member and an observer, 404 to a stranger', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.member.post(fieldsUrl(team.board.id), { name: 'f', type: 'text' }), 403);
    expectError(await team.as.observer.post(fieldsUrl(team.board.id), { name: 'f', type: 'text' }), 403);
    expectError(await team.as.stranger.post(fieldsUrl(team.board.id), { name: 'f', type: 'text' }), 404);
    expectError(await team.as.admin.post(fieldsUrl(999999), { name: 'f', type: 'text' }), 404);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.post(fieldsUrl(team.board.id), { name: 'f', type: 'text' }), 403);
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([]);
  });

  it('records custom_field.created', async () => {
    const team = await makeTeam(t);
    const field = await makeField(team.as.admin, team.board.id, 'list', ['a', 'b']);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'custom_field.created', actor: { userId: team.admin.id } });
    expect(JSON.stringify(a.data)).toContain(String(field.id));
  });

  it('the board fetch lists the fields ordered by id', async () => {
    const team = await makeTeam(t);
    const made = [
      await makeField(team.as.admin, team.board.id, 'number', undefined, 'z'),
      await makeField(team.as.admin, team.board.id, 'list', ['x'], 'a'),
      await makeField(team.as.admin, team.board.id, 'checkbox', undefined, 'm'),
    ];
    await makeField(team.as.admin, (await makeBoard(t.db, team.admin.id)).id, 'text');
    expect((await fetchBoard(team.as.observer, team.board.id)).customFields).toEqual(made.sort((x, y) => x.id - y.id));
  });
});

describe('PUT /api/cards/{id}/fields/{fieldId}', () => {
  it('sets a value (200 with the full card): fieldValues["<fieldId>"] = value, the version grows', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const field = await makeField(team.as.admin, team.board.id, 'text');
    const after = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/fields/${field.id}`, { value: 'hello' }), 200);
    expect(after.fieldValues).toEqual({ [String(field.id)]: 'hello' });
    expect(after.version).toBeGreaterThan(card.version);
    expect(await getCard(team.as.observer, card.id)).toEqual(after);
  });

  it('holds one value per field, replaced by the next PUT', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const text = await makeField(team.as.admin, team.board.id, 'text');
    const num = await makeField(team.as.admin, team.board.id, 'number');
    await setField(team.as.member, card.id, text.id, 'one');
    await setField(team.as.member, card.id, num.id, 7);
    const after = await setField(team.as.member, card.id, text.id, 'two');
    expect(after.fieldValues).toEqual({ [String(text.id)]: 'two', [String(num.id)]: 7 });
  });

  it('null clears the value: its key is gone', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const a = await makeField(team.as.admin, team.board.id, 'number');
    const b = await makeField(team.as.admin, team.board.id, 'checkbox');
    await setField(team.as.member, card.id, a.id, 1);
    const set = await setField(team.as.member, card.id, b.id, false);
    const cleared = await setField(team.as.member, card.id, a.id, null);
    expect(cleared.fieldValues).toEqual({ [String(b.id)]: false });
    expect(String(a.id) in cleared.fieldValues).toBe(false);
    expect(cleared.version).toBeGreaterThan(set.version);
    expect((await getCard(team.as.admin, card.id)).fieldValues).toEqual({ [String(b.id)]: false });
  });

  it('setting the same value again, or clearing a value that is not there, changes nothing (same version)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const f = await makeField(team.as.admin, team.board.id, 'text');
    const g = await makeField(team.as.admin, team.board.id, 'number');
    const first = await setField(team.as.member, card.id, f.id, 'same');
    expect((await setField(team.as.member, card.id, f.id, 'same')).version).toBe(first.version);
    expect((await setField(team.as.member, card.id, g.id, null)).version).toBe(first.version);
  });

  it.each([
    ['text', undefined, 'hello'],
    ['text', undefined, ''],
    ['text', undefined, 't'.repeat(1000)],
    ['number', undefined, 0],
    ['number', undefined, -3],
    ['number', undefined, 2.5],
    ['number', undefined, 1e21],
    ['date', undefined, '2030-01-02'],
    ['date', undefined, '2028-02-29'],
    ['checkbox', undefined, true],
    ['checkbox', undefined, false],
    ['list', ['High', 'Low'], 'Low'],
  ])('takes a %s value (%#)', async (type, options, value) => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, type, options);
    const after = await setField(team.as.member, team.cards[0].id, field.id, value);
    expect(after.fieldValues[String(field.id)]).toEqual(value);
    expect((await getCard(team.as.admin, team.cards[0].id)).fieldValues[String(field.id)]).toEqual(value);
  });

  it.each([
    ['2030-01-02T05:04:05+02:00', '2030-01-02T03:04:05.000Z'],
    ['2030-01-02T03:04:05Z', '2030-01-02T03:04:05.000Z'],
    ['2030-01-01T23:30:00.250-05:00', '2030-01-02T04:30:00.250Z'],
  ])('stores a date-time %s normalised to UTC (%s)', async (given, stored) => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'date');
    expect((await setField(team.as.member, team.cards[0].id, field.id, given)).fieldValues[String(field.id)]).toBe(stored);
    expect((await getCard(team.as.admin, team.cards[0].id)).fieldValues[String(field.id)]).toBe(stored);
  });

  it.each([
    ['text', undefined, 't'.repeat(1001)],
    ['text', undefined, 5],
    ['text', undefined, true],
    ['text', undefined, ['a']],
    ['number', undefined, '5'],
    ['number', undefined, true],
    ['number', undefined, { n: 1 }],
    ['date', undefined, '2030-02-30'],
    ['date', undefined, 'tomorrow'],
    ['date', undefined, '2030-13-01'],
    ['date', undefined, '2030-01-02T03:04:05'],
    ['date', undefined, 20300102],
    ['checkbox', undefined, 'true'],
    ['checkbox', undefined, 1],
    ['checkbox', undefined, 0],
    ['list', ['High', 'Low'], 'Medium'],
    ['list', ['High', 'Low'], 'high'],
    ['list', ['High', 'Low'], 0],
  ])('refuses a bad %s value with 400 naming value (%#), changing nothing', async (type, options, value) => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const field = await makeField(team.as.admin, team.board.id, type, options);
    expectFieldError(await team.as.member.put(`/api/cards/${card.id}/fields/${field.id}`, { value }), 'value');
    const now = await getCard(team.as.admin, card.id);
    expect(now.fieldValues).toEqual({});
    expect(now.version).toBe(card.version);
  });

  it('refuses a number that JSON makes infinite (1e400)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'number');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/cards/${team.cards[0].id}/fields/${field.id}`,
      headers: { ...team.keys.admin.auth, 'content-type': 'application/json' },
      payload: '{"value": 1e400}',
    });
    expectFieldError(res, 'value');
  });

  it('refuses a body without value with 400', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'text');
    expectError(await team.as.member.put(`/api/cards/${team.cards[0].id}/fields/${field.id}`, {}), 400);
    expectError(await team.as.member.put(`/api/cards/${team.cards[0].id}/fields/${field.id}`, { val: 'x' }), 400);
  });

  it('refuses a field of another board, or one that does not exist, with 400 naming fieldId', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const other = await makeBoard(t.db, team.admin.id);
    const foreign = await makeField(team.as.admin, other.id, 'text');
    expectFieldError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/fields/${foreign.id}`, { value: 'x' }), 'fieldId');
    expectFieldError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/fields/999999`, { value: 'x' }), 'fieldId');
    expect((await getCard(team.as.admin, team.cards[0].id)).fieldValues).toEqual({});
  });

  it('is 403 to an observer and a read-only key, 404 to a stranger and for a missing card', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'text');
    const url = `/api/cards/${team.cards[0].id}/fields/${field.id}`;
    expectError(await team.as.observer.put(url, { value: 'x' }), 403);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.put(url, { value: 'x' }), 403);
    expectError(await team.as.stranger.put(url, { value: 'x' }), 404);
    expectError(await team.as.admin.put(`/api/cards/999999/fields/${field.id}`, { value: 'x' }), 404);
    expect((await getCard(team.as.admin, team.cards[0].id)).fieldValues).toEqual({});
  });

  it('records card.field_set with cardId, fieldId, value and the card summary', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const field = await makeField(team.as.admin, team.board.id, 'number');
    const after = await setField(team.as.member, card.id, field.id, 42);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'card.field_set', actor: { userId: team.member.id }, data: { cardId: card.id, fieldId: field.id, value: 42 } });
    expect(Object.keys(a.data.card).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
    expect(a.data.card).toMatchObject({ id: card.id, fieldValues: { [String(field.id)]: 42 }, version: after.version });
    await setField(team.as.member, card.id, field.id, null);
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({ type: 'card.field_set', data: { cardId: card.id, fieldId: field.id, value: null } });
  });

  it('the board fetch shows fieldValues on every card summary as GET /cards/{id} does', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const f = await makeField(team.as.admin, team.board.id, 'date');
    const g = await makeField(team.as.admin, team.board.id, 'list', ['a', 'b']);
    await setField(team.as.member, team.cards[0].id, f.id, '2030-01-02');
    const full = await setField(team.as.member, team.cards[0].id, g.id, 'b');
    const cards = (await fetchBoard(team.as.admin, team.board.id)).lists[0].cards;
    expect(cards[0].fieldValues).toEqual(full.fieldValues);
    expect(cards[0].fieldValues).toEqual({ [String(f.id)]: '2030-01-02', [String(g.id)]: 'b' });
    expect(cards[1].fieldValues).toEqual({});
  });

  it('a date-time whose UTC form leaves years 0000-9999 is 400; stored date-times can be sent back and survive a rename', async () => {
    const team = await makeTeam(t);
    const a = team.as.admin;
    const card = await makeCard(a, team.list.id, 'C');
    const f = (await a.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'd', type: 'date' })).json();
    for (const value of ['9999-12-31T23:59:59-05:00', '0000-01-01T00:00:00+01:00']) {
      const res = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^value:/);
    }
    const set = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '2030-06-01T12:00:00+02:00' });
    const stored = set.json().fieldValues[String(f.id)];
    expect(stored).toBe('2030-06-01T10:00:00.000Z');
    const again = await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: stored });
    expect(again.statusCode).toBe(200);
    expect(again.json().version).toBe(set.json().version); // the same value: no change
    const renamed = await a.patch(`/api/custom-fields/${f.id}`, { name: 'renamed' });
    expect(renamed.statusCode).toBe(200);
    expect((await a.get(`/api/cards/${card.id}`)).json().fieldValues[String(f.id)]).toBe(stored);
  });

  it('"0050-01-01" is a valid date value', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    const f = (await team.as.admin.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'd', type: 'date' })).json();
    expect((await team.as.admin.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '0050-01-01' })).statusCode).toBe(200);
  });
});

describe('PATCH /api/custom-fields/{id}', () => {
  it('renames a field (200 with the field) and records custom_field.updated', async () => {
    const team = await makeTeam(t);
    const field = await makeField(team.as.admin, team.board.id, 'text', undefined, 'Old');
    const res = await team.as.admin.patch(`/api/custom-fields/${field.id}`, { name: 'New' });
    expectStatus(res, 200);
    expect(res.json()).toEqual({ ...field, name: 'New' });
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({ type: 'custom_field.updated' });
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([{ ...field, name: 'New' }]);
  });

  it('is for board admins only: 403 to a member, 404 to a stranger and for a missing field', async () => {
    const team = await makeTeam(t);
    const field = await makeField(team.as.admin, team.board.id, 'text', undefined, 'Old');
    expectError(await team.as.member.patch(`/api/custom-fields/${field.id}`, { name: 'x' }), 403);
    expectError(await team.as.observer.patch(`/api/custom-fields/${field.id}`, { name: 'x' }), 403);
    expectError(await team.as.stranger.patch(`/api/custom-fields/${field.id}`, { name: 'x' }), 404);
    expectError(await team.as.admin.patch('/api/custom-fields/999999', { name: 'x' }), 404);
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([field]);
  });

  it('refuses bad names, types and options with 400 naming the field', async () => {
    const team = await makeTeam(t);
    const text = await makeField(team.as.admin, team.board.id, 'text');
    const list = await makeField(team.as.admin, team.board.id, 'list', ['a', 'b']);
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${text.id}`, { name: '' }), 'name');
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${text.id}`, { type: 'colour' }), 'type');
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${text.id}`, { options: ['a'] }), 'options');
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${text.id}`, { type: 'list' }), 'options');
    expectError(await team.as.admin.patch(`/api/custom-fields/${list.id}`, { options: [] }), 400, /^options/);
    expectError(await team.as.admin.patch(`/api/custom-fields/${list.id}`, { options: ['a', 'a'] }), 400, /^options/);
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([text, list]);
  });

  it('number → text keeps every value as its text form', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const field = await makeField(team.as.admin, team.board.id, 'number');
    await setField(team.as.member, a.id, field.id, 5);
    await setField(team.as.member, b.id, field.id, 2.5);
    const res = await team.as.admin.patch(`/api/custom-fields/${field.id}`, { type: 'text' });
    expectStatus(res, 200);
    expect(res.json()).toEqual({ ...field, type: 'text', options: [] });
    expect((await getCard(team.as.admin, a.id)).fieldValues).toEqual({ [String(field.id)]: '5' });
    expect((await getCard(team.as.admin, b.id)).fieldValues).toEqual({ [String(field.id)]: '2.5' });
    expect((await getCard(team.as.admin, c.id)).fieldValues).toEqual({});
  });

  it('text → number keeps the texts that are numbers, as numbers, and clears the others', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const field = await makeField(team.as.admin, team.board.id, 'text');
    await setField(team.as.member, a.id, field.id, '42');
    await setField(team.as.member, b.id, field.id, 'forty-two');
    await setField(team.as.member, c.id, field.id, '-1.5');
    const before = await getCard(team.as.admin, b.id);
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${field.id}`, { type: 'number' }), 200);
    expect((await getCard(team.as.admin, a.id)).fieldValues).toEqual({ [String(field.id)]: 42 });
    const cleared = await getCard(team.as.admin, b.id);
    expect(cleared.fieldValues).toEqual({});
    expect(cleared.version).toBeGreaterThan(before.version);
    expect((await getCard(team.as.admin, c.id)).fieldValues).toEqual({ [String(field.id)]: -1.5 });
    // And the field now takes numbers only.
    expectFieldError(await team.as.member.put(`/api/cards/${b.id}/fields/${field.id}`, { value: 'x' }), 'value');
    await setField(team.as.member, b.id, field.id, 3);
  });

  it('text → checkbox clears values that are not booleans; text → list keeps those that are options', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const f = await makeField(team.as.admin, team.board.id, 'text', undefined, 'f');
    const g = await makeField(team.as.admin, team.board.id, 'text', undefined, 'g');
    await setField(team.as.member, a.id, f.id, 'yes');
    await setField(team.as.member, a.id, g.id, 'High');
    await setField(team.as.member, b.id, g.id, 'Whatever');
    await setField(team.as.member, c.id, g.id, 'Low');
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${f.id}`, { type: 'checkbox' }), 200);
    const res = await team.as.admin.patch(`/api/custom-fields/${g.id}`, { type: 'list', options: ['High', 'Low'] });
    expectStatus(res, 200);
    expect(res.json()).toEqual({ ...g, type: 'list', options: ['High', 'Low'] });
    expect((await getCard(team.as.admin, a.id)).fieldValues).toEqual({ [String(g.id)]: 'High' });
    expect((await getCard(team.as.admin, b.id)).fieldValues).toEqual({});
    expect((await getCard(team.as.admin, c.id)).fieldValues).toEqual({ [String(g.id)]: 'Low' });
  });

  it('removing a list option clears the values that used it, and only those', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const field = await makeField(team.as.admin, team.board.id, 'list', ['High', 'Medium', 'Low']);
    await setField(team.as.member, a.id, field.id, 'High');
    await setField(team.as.member, b.id, field.id, 'Medium');
    const cBefore = await setField(team.as.member, c.id, field.id, 'Low');
    const bBefore = await getCard(team.as.admin, b.id);
    const res = await team.as.admin.patch(`/api/custom-fields/${field.id}`, { options: ['Low', 'High', 'Urgent'] });
    expectStatus(res, 200);
    expect(res.json().options).toEqual(['Low', 'High', 'Urgent']);
    expect((await getCard(team.as.admin, a.id)).fieldValues).toEqual({ [String(field.id)]: 'High' });
    const bAfter = await getCard(team.as.admin, b.id);
    expect(bAfter.fieldValues).toEqual({});
    expect(bAfter.version).toBeGreaterThan(bBefore.version);
    expect(await getCard(team.as.admin, c.id)).toEqual(cBefore);
    expectFieldError(await team.as.member.put(`/api/cards/${b.id}/fields/${field.id}`, { value: 'Medium' }), 'value');
    await setField(team.as.member, b.id, field.id, 'Urgent');
  });

  it('list → number and date → checkbox clear every value; no card ever holds a value its field refuses', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    const list = await makeField(team.as.admin, team.board.id, 'list', ['1', 'two']);
    const date = await makeField(team.as.admin, team.board.id, 'date');
    const box = await makeField(team.as.admin, team.board.id, 'checkbox');
    await setField(team.as.member, a.id, list.id, 'two');
    await setField(team.as.member, a.id, date.id, '2030-01-02');
    await setField(team.as.member, b.id, date.id, '2030-01-02T03:04:05+00:00');
    await setField(team.as.member, b.id, box.id, true);
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${list.id}`, { type: 'number' }), 200);
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${date.id}`, { type: 'checkbox' }), 200);
    expectStatus(await team.as.admin.patch(`/api/custom-fields/${box.id}`, { type: 'number' }), 200);
    expect((await getCard(team.as.admin, a.id)).fieldValues).toEqual({});
    expect((await getCard(team.as.admin, b.id)).fieldValues).toEqual({});
    const fields = (await fetchBoard(team.as.admin, team.board.id)).customFields;
    expect(fields.map((f: any) => [f.type, f.options])).toEqual([['number', []], ['checkbox', []], ['number', []]]);
  });

  it('text -> number keeps only lossless conversions ("0x1A" is not 26)', async () => {
    const team = await makeTeam(t);
    const a = team.as.admin;
    const card = await makeCard(a, team.list.id, 'C');
    const f = (await a.post(`/api/boards/${team.board.id}/custom-fields`, { name: 'x', type: 'text' })).json();
    await a.put(`/api/cards/${card.id}/fields/${f.id}`, { value: '0x1A' });
    await a.patch(`/api/custom-fields/${f.id}`, { type: 'number' });
    expect((await a.get(`/api/cards/${card.id}`)).json().fieldValues[String(f.id)]).not.toBe(26);
  });
});

describe('DELETE /api/custom-fields/{id}', () => {
  it('deletes the field (204): its values leave every card; records custom_field.deleted', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    const gone = await makeField(team.as.admin, team.board.id, 'text');
    const kept = await makeField(team.as.admin, team.board.id, 'number');
    await setField(team.as.member, a.id, gone.id, 'x');
    await setField(team.as.member, a.id, kept.id, 1);
    await setField(team.as.member, b.id, gone.id, 'y');
    const aBefore = await getCard(team.as.admin, a.id);

    expectError(await team.as.member.del(`/api/custom-fields/${gone.id}`), 403);
    expectError(await team.as.stranger.del(`/api/custom-fields/${gone.id}`), 404);
    expectNoContent(await team.as.admin.del(`/api/custom-fields/${gone.id}`));

    const aAfter = await getCard(team.as.admin, a.id);
    expect(aAfter.fieldValues).toEqual({ [String(kept.id)]: 1 });
    expect(aAfter.version).toBeGreaterThan(aBefore.version);
    expect((await getCard(team.as.admin, b.id)).fieldValues).toEqual({});
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.customFields).toEqual([kept]);
    expect(board.lists[0].cards.map((c: any) => c.fieldValues)).toEqual([{ [String(kept.id)]: 1 }, {}]);
    const acts = await boardActivities(team.as.admin, team.board.id);
    expect(acts[0]).toMatchObject({ type: 'custom_field.deleted' });
    expect(JSON.stringify(acts[0].data)).toContain(String(gone.id));
    expectError(await team.as.admin.del(`/api/custom-fields/${gone.id}`), 404);
    expectFieldError(await team.as.admin.put(`/api/cards/${a.id}/fields/${gone.id}`, { value: 'x' }), 'fieldId');
  });
});

describe('custom fields under concurrent requests', () => {
  it('five values set at once on one card and field: all 200, the card ends with the last one applied', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'number');
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => team.as.member.put(`/api/cards/${team.cards[0].id}/fields/${field.id}`, { value: n })));
    const cards = results.map((r) => expectCardResponse(r, 200));
    const last = cards.reduce((a, b) => (b.version > a.version ? b : a));
    const now = await getCard(team.as.admin, team.cards[0].id);
    expect(now.fieldValues).toEqual(last.fieldValues);
    expect(now.version).toBe(last.version);
  });

  it('values set on several fields at once all land', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const fields = [];
    for (let i = 0; i < 4; i++) fields.push(await makeField(team.as.admin, team.board.id, 'text', undefined, `f${i}`));
    const results = await Promise.all(fields.map((f, i) => team.as.member.put(`/api/cards/${team.cards[0].id}/fields/${f.id}`, { value: `v${i}` })));
    for (const r of results) expectCardResponse(r, 200);
    expect((await getCard(team.as.admin, team.cards[0].id)).fieldValues).toEqual(Object.fromEntries(fields.map((f, i) => [String(f.id), `v${i}`])));
  });

  it('a type change racing value writes leaves no card with a value its field refuses', async () => {
    const team = await makeTeam(t, { cards: 4 });
    const field = await makeField(team.as.admin, team.board.id, 'text');
    const results = await Promise.all([
      ...team.cards.map((c: any, i: number) => team.as.member.put(`/api/cards/${c.id}/fields/${field.id}`, { value: i % 2 ? `${i}` : `word${i}` })),
      team.as.admin.patch(`/api/custom-fields/${field.id}`, { type: 'number' }),
    ]);
    for (const r of results) expect([200, 400, 409]).toContain(r.statusCode);
    for (const c of team.cards) {
      const v = (await getCard(team.as.admin, c.id)).fieldValues[String(field.id)];
      expect(v === undefined || typeof v === 'number').toBe(true);
    }
  });
});

describe('custom fields: more refusals', () => {
  it('PUT refuses a field besides value; PATCH refuses options with a non-list type and unknown fields', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const list = await makeField(team.as.admin, team.board.id, 'list', ['a']);
    expectFieldError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/fields/${list.id}`, { value: 'a', extra: 1 }), 'extra');
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${list.id}`, { type: 'text', options: ['a'] }), 'options');
    expectFieldError(await team.as.admin.patch(`/api/custom-fields/${list.id}`, { boardId: 2 }), 'boardId');
    expect((await fetchBoard(team.as.admin, team.board.id)).customFields).toEqual([list]);
  });

  it.each(['2029-02-29', '2030-1-2', '2030-01-02T25:00:00Z', ''])('refuses the date %j', async (value) => {
    const team = await makeTeam(t, { cards: 1 });
    const field = await makeField(team.as.admin, team.board.id, 'date');
    expectFieldError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/fields/${field.id}`, { value }), 'value');
  });
});
