import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  boardActivities,
  cardIdsOfList,
  client,
  expectCardResponse,
  expectError,
  expectFieldError,
  expectStatus,
  fetchBoard,
  getCard,
  makeCards,
  makeField,
  makeLabel,
  makeList,
  makeTeam,
  summaryOf,
} from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * POST /lists/{id}/cards with what Trello's card creation takes besides a title: position, due
 * date (a date-time or a bare date), labels, assignees and field values, all in one transaction.
 */
const t = useTestApp(BOARD_TEST_ENV);
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

const create = (api: ReturnType<typeof client>, listId: number, body: object) => api.post(`/api/lists/${listId}/cards`, body);

describe('position', () => {
  it('puts the card at 0..n, shifting the others; omitted = the end', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards.map((x: any) => x.id);
    const first = expectCardResponse(await create(team.as.member, team.list.id, { title: 'first', position: 0 }), 201);
    expect(first.position).toBe(0);
    const middle = expectCardResponse(await create(team.as.member, team.list.id, { title: 'middle', position: 2 }), 201);
    expect(middle.position).toBe(2);
    const end = expectCardResponse(await create(team.as.member, team.list.id, { title: 'end', position: 5 }), 201);
    expect(end.position).toBe(5);
    const last = expectCardResponse(await create(team.as.member, team.list.id, { title: 'last' }), 201);
    expect(last.position).toBe(6);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([first.id, a, middle.id, b, c, end.id, last.id]);
  });

  it('refuses a position beyond n, or negative, with 400 naming position and creates nothing', async () => {
    const team = await makeTeam(t, { cards: 2 });
    expectError(await create(team.as.member, team.list.id, { title: 'x', position: 3 }), 400, /^position: must be between 0 and 2$/);
    expectFieldError(await create(team.as.member, team.list.id, { title: 'x', position: -1 }), 'position');
    expectFieldError(await create(team.as.member, team.list.id, { title: 'x', position: 1.5 }), 'position');
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(team.cards.map((c: any) => c.id));
  });

  it('keeps positions 0..n-1 when many creations at chosen positions run at once', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const send = (position?: number) =>
      fetch(`${base}/api/lists/${team.list.id}/cards`, {
        method: 'POST',
        headers: { ...team.keys.member.auth, 'content-type': 'application/json' },
        body: JSON.stringify(position === undefined ? { title: 'racer' } : { title: 'racer', position }),
      });
    // Positions 0..2 are always valid (the list never has fewer than 2 cards); others go to the end.
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => send(i % 4 === 3 ? undefined : i % 3)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 201 && s !== 409), statuses.join(',')).toEqual([]);
    const created = statuses.filter((s) => s === 201).length;
    expect(created).toBeGreaterThan(0);
    const ids = await cardIdsOfList(team.as.admin, team.board.id, team.list.id); // checks 0..n-1
    expect(ids).toHaveLength(2 + created);
  });
});

describe('dueAt', () => {
  it('takes an ISO-8601 date-time (stored in UTC) or a bare date (00:00 UTC), and null', async () => {
    const team = await makeTeam(t);
    const withOffset = expectCardResponse(await create(team.as.member, team.list.id, { title: 'a', dueAt: '2030-01-31T17:00:00+01:00' }), 201);
    expect(withOffset.dueAt).toBe('2030-01-31T16:00:00.000Z');
    const date = expectCardResponse(await create(team.as.member, team.list.id, { title: 'b', dueAt: '2030-02-28' }), 201);
    expect(date.dueAt).toBe('2030-02-28T00:00:00.000Z');
    const none = expectCardResponse(await create(team.as.member, team.list.id, { title: 'c', dueAt: null }), 201);
    expect(none.dueAt).toBeNull();
    expect((await getCard(team.as.admin, date.id)).dueAt).toBe('2030-02-28T00:00:00.000Z');
  });

  it.each([['next tuesday'], ['2030-02-30'], ['2030-1-5'], ['0000-01-01'], [20300101], ['2030-01-31T17:00:00']])(
    'refuses %j with 400 naming dueAt',
    async (dueAt) => {
      const team = await makeTeam(t);
      expectFieldError(await create(team.as.member, team.list.id, { title: 'x', dueAt }), 'dueAt');
      expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([]);
    },
  );

  it('is accepted as a bare date by PATCH /cards/{id} too', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = expectCardResponse(await team.as.member.patch(`/api/cards/${team.cards[0].id}`, { dueAt: '2031-12-31' }), 200);
    expect(card.dueAt).toBe('2031-12-31T00:00:00.000Z');
  });
});

describe('labelIds, memberIds, fieldValues', () => {
  it('creates the card with all of them in one card.created activity, and returns the full card', async () => {
    const team = await makeTeam(t);
    const red = await makeLabel(team.as.admin, team.board.id, 'Red', 'red');
    const blue = await makeLabel(team.as.admin, team.board.id, 'Blue', 'blue');
    const text = await makeField(team.as.admin, team.board.id, 'text');
    const num = await makeField(team.as.admin, team.board.id, 'number');
    const date = await makeField(team.as.admin, team.board.id, 'date');
    const box = await makeField(team.as.admin, team.board.id, 'checkbox');
    const pick = await makeField(team.as.admin, team.board.id, 'list', ['low', 'high']);
    const before = await boardActivities(team.as.admin, team.board.id);
    const res = await create(team.as.member, team.list.id, {
      title: 'Everything',
      description: 'at once',
      dueAt: '2030-05-01',
      labelIds: [blue.id, red.id, blue.id],
      memberIds: [team.observer.id, team.member.id],
      fieldValues: { [text.id]: 'hello', [num.id]: 3.5, [date.id]: '2030-01-31T10:00:00+02:00', [box.id]: true, [pick.id]: 'high' },
    });
    const card = expectCardResponse(res, 201);
    expect(card).toMatchObject({
      title: 'Everything',
      description: 'at once',
      position: 0,
      dueAt: '2030-05-01T00:00:00.000Z',
      labelIds: [red.id, blue.id].sort((a, b) => a - b),
      memberIds: [team.member.id, team.observer.id].sort((a, b) => a - b),
      fieldValues: { [text.id]: 'hello', [num.id]: 3.5, [date.id]: '2030-01-31T08:00:00.000Z', [box.id]: true, [pick.id]: 'high' },
      version: 1,
    });
    expect(await getCard(team.as.admin, card.id)).toEqual(card);
    const after = await boardActivities(team.as.admin, team.board.id);
    const added = after.slice(0, after.length - before.length);
    expect(added.map((a) => a.type)).toEqual(['card.created']);
    expect(added[0].data).toEqual({ cardId: card.id, listId: team.list.id, card: summaryOf(card) });
  });

  it('sets nothing for a null field value, and takes empty arrays and objects', async () => {
    const team = await makeTeam(t);
    const text = await makeField(team.as.admin, team.board.id, 'text');
    const card = expectCardResponse(
      await create(team.as.member, team.list.id, { title: 'x', labelIds: [], memberIds: [], fieldValues: { [text.id]: null } }),
      201,
    );
    expect(card).toMatchObject({ labelIds: [], memberIds: [], fieldValues: {} });
  });

  it("refuses a label, member or custom field that is not the list's board's: 400 naming the field, nothing created", async () => {
    const team = await makeTeam(t, { cards: 1 });
    const other = await makeTeam(t);
    const ownLabel = await makeLabel(team.as.admin, team.board.id);
    const foreignLabel = await makeLabel(other.as.admin, other.board.id);
    const foreignField = await makeField(other.as.admin, other.board.id, 'text');
    const before = await boardActivities(team.as.admin, team.board.id);
    const cases: [object, string, RegExp][] = [
      [{ labelIds: [ownLabel.id, foreignLabel.id] }, 'labelIds', new RegExp(`label ${foreignLabel.id} is not on the card's board`)],
      [{ labelIds: [2_147_483_000] }, 'labelIds', /is not on the card's board/],
      [{ memberIds: [team.stranger.id] }, 'memberIds', new RegExp(`user ${team.stranger.id} is not a member`)],
      [{ memberIds: [other.admin.id, team.member.id] }, 'memberIds', /is not a member of this list's board/],
      [{ fieldValues: { [foreignField.id]: 'x' } }, 'fieldValues', new RegExp(`custom field ${foreignField.id} is not on this list's board`)],
    ];
    for (const [extra, field, message] of cases) {
      const res = await create(team.as.member, team.list.id, { title: 'refused', ...extra });
      expectFieldError(res, field);
      expectError(res, 400, message);
    }
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id]);
    expect(await boardActivities(team.as.admin, team.board.id)).toEqual(before);
  });

  it('checks each value against its field type exactly as PUT /cards/{id}/fields/{fieldId} does', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const fields = {
      text: await makeField(team.as.admin, team.board.id, 'text'),
      number: await makeField(team.as.admin, team.board.id, 'number'),
      date: await makeField(team.as.admin, team.board.id, 'date'),
      checkbox: await makeField(team.as.admin, team.board.id, 'checkbox'),
      list: await makeField(team.as.admin, team.board.id, 'list', ['a', 'b']),
    };
    const wrong: [keyof typeof fields, unknown][] = [
      ['text', 12],
      ['text', 'x'.repeat(1001)],
      ['number', '12'],
      ['date', '2030-02-30'],
      ['date', 'tomorrow'],
      ['checkbox', 'true'],
      ['list', 'c'],
    ];
    for (const [type, value] of wrong) {
      const field = fields[type];
      const put = await team.as.member.put(`/api/cards/${team.cards[0].id}/fields/${field.id}`, { value });
      expectFieldError(put, 'value');
      const res = await create(team.as.member, team.list.id, { title: 'x', fieldValues: { [field.id]: value } });
      expectFieldError(res, `fieldValues.${field.id}`);
      expect(res.json().error.replace(/^[^:]+: /, ''), `${type} ${JSON.stringify(value)}`).toBe(put.json().error.replace(/^value: /, ''));
    }
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id]);
  });

  it.each([
    ['a field id that is not a number', { fieldValues: { abc: 'x' } }, 'fieldValues'],
    ['an object as a field value', { fieldValues: { 1: { a: 1 } } }, 'fieldValues.1'],
    ['labelIds that is not an array', { labelIds: 3 }, 'labelIds'],
    ['a label id that is not an id', { labelIds: ['x'] }, 'labelIds.0'],
    ['a member id of 0', { memberIds: [0] }, 'memberIds.0'],
    ['an unknown field', { listId: 3 }, 'listId'],
  ])('refuses %s with 400 naming the field', async (_what, extra, field) => {
    const team = await makeTeam(t);
    expectFieldError(await create(team.as.member, team.list.id, { title: 'x', ...extra }), field);
  });
});

describe('who may', () => {
  it('observers and read keys: 403; outside reach: 404, with nothing created', async () => {
    const team = await makeTeam(t);
    const label = await makeLabel(team.as.admin, team.board.id);
    const body = { title: 'x', labelIds: [label.id], memberIds: [team.member.id], position: 0 };
    expectError(await create(team.as.observer, team.list.id, body), 403);
    const readKey = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await create(readKey, team.list.id, body), 403);
    expectError(await create(team.as.stranger, team.list.id, body), 404);
    const elsewhere = await makeBoard(t.db, team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [elsewhere.id] })).auth);
    expectError(await create(limited, team.list.id, body), 404);
    expect((await fetchBoard(team.as.admin, team.board.id)).lists[0].cards).toEqual([]);
  });

  it('checks 404 before a bad position or a foreign label (nothing is revealed outside reach)', async () => {
    const team = await makeTeam(t);
    const outsider = await makeUser(t.db);
    const api = client(t.app, (await makeKey(t.db, outsider.id)).auth);
    expectError(await create(api, team.list.id, { title: 'x', position: 99, labelIds: [1] }), 404);
  });

  it('refuses an archived list with 400', async () => {
    const team = await makeTeam(t);
    const list = await makeList(team.as.admin, team.board.id, 'Old');
    expectStatus(await team.as.admin.patch(`/api/lists/${list.id}`, { archived: true }), 200);
    expectFieldError(await create(team.as.member, list.id, { title: 'x', position: 0 }), 'list');
  });
});

describe('racing deletions of what the new card refers to', () => {
  it('never leaves a card holding a deleted label or field, nor answers 5xx', async () => {
    const team = await makeTeam(t);
    await makeCards(team.as.admin, team.list.id, 1);
    const post = (path: string, body: object) =>
      fetch(`${base}/api${path}`, { method: 'POST', headers: { ...team.keys.member.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const del = (path: string) => fetch(`${base}/api${path}`, { method: 'DELETE', headers: team.keys.admin.auth });
    for (let round = 0; round < 6; round++) {
      const label = await makeLabel(team.as.admin, team.board.id);
      const field = await makeField(team.as.admin, team.board.id, 'text');
      const answers = await Promise.all([
        post(`/lists/${team.list.id}/cards`, { title: 'r', labelIds: [label.id], fieldValues: { [field.id]: 'v' } }),
        del(`/labels/${label.id}`),
        del(`/custom-fields/${field.id}`),
      ]);
      expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
      expect([201, 400, 409]).toContain(answers[0]!.status);
      expect(answers[1]!.status).toBe(204);
      expect(answers[2]!.status).toBe(204);
    }
    const board = await fetchBoard(team.as.admin, team.board.id);
    for (const card of board.lists[0].cards) {
      expect(card.labelIds).toEqual([]);
      expect(card.fieldValues).toEqual({});
    }
    expect(board.labels).toEqual([]);
  });
});
