import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  cardIdsOfList,
  expectCardResponse,
  expectError,
  expectFieldError,
  expectNoContent,
  expectStatus,
  idsOf,
  makeCard,
  makeCards,
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { useTestApp } from '../../helper.js';

/** Cards: create, fetch, edit, archive, delete, and optimistic concurrency (SPEC §3). Moves and copies: card-moves.test.ts. */
const t = useTestApp(BOARD_TEST_ENV);

describe('POST /api/lists/{id}/cards', () => {
  it('creates a card (201 with the full card and its ETag)', async () => {
    const team = await makeTeam(t);
    const res = await team.as.member.post(`/api/lists/${team.list.id}/cards`, { title: 'Write tests', description: 'All of them' });
    const card = expectCardResponse(res, 201);
    expect(card).toMatchObject({
      boardId: team.board.id,
      listId: team.list.id,
      title: 'Write tests',
      description: 'All of them',
      position: 0,
      archived: false,
      dueAt: null,
      labelIds: [],
      memberIds: [],
      fieldValues: {},
      checklistItems: { total: 0, checked: 0 },
      commentCount: 0,
      attachmentCount: 0,
      checklists: [],
      comments: [],
      attachments: [],
    });
    expect(card.id).toBeGreaterThan(0);
  });

  it('adds every new card at the end of the list', async () => {
    const team = await makeTeam(t);
    const cards = await makeCards(team.as.admin, team.list.id, 4);
    expect(cards.map((c: any) => c.position)).toEqual([0, 1, 2, 3]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(cards));
  });

  it('makes the description an empty string when none is given', async () => {
    const team = await makeTeam(t);
    const card = expectCardResponse(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: 'Bare' }), 201);
    expect(card.description).toBe('');
  });

  it('takes titles of 1 and 512 characters and descriptions of 16384', async () => {
    const team = await makeTeam(t);
    expectCardResponse(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: 'x' }), 201);
    const long = await team.as.admin.post(`/api/lists/${team.list.id}/cards`, { title: 't'.repeat(512), description: 'd'.repeat(16_384) });
    expect(expectCardResponse(long, 201).title).toHaveLength(512);
  });

  it.each([
    ['a missing title', {}, 'title'],
    ['an empty title', { title: '' }, 'title'],
    ['a title of 513 characters', { title: 't'.repeat(513) }, 'title'],
    ['a title that is not a string', { title: 7 }, 'title'],
    ['a description of 16385 characters', { title: 'ok', description: 'd'.repeat(16_385) }, 'description'],
    ['a description that is not a string', { title: 'ok', description: { text: 'x' } }, 'description'],
    ['an unknown field', { title: 'ok', colour: 'red' }, 'colour'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_what, payload, field) => {
    const team = await makeTeam(t, { cards: 1 });
    expectFieldError(await team.as.admin.post(`/api/lists/${team.list.id}/cards`, payload), field);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(team.cards));
  });

  it('is refused to an observer (403), and answers 404 for a list that does not exist', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.observer.post(`/api/lists/${team.list.id}/cards`, { title: 'x' }), 403);
    expectError(await team.as.admin.post('/api/lists/999999/cards', { title: 'x' }), 404);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([]);
  });
});

describe('GET /api/cards/{id}', () => {
  it('returns the full card with ETag: "<version>", to every role', async () => {
    const team = await makeTeam(t);
    const created = await makeCard(team.as.admin, team.list.id, 'Read me', 'Details');
    for (const api of [team.as.admin, team.as.member, team.as.observer]) {
      const card = expectCardResponse(await api.get(`/api/cards/${created.id}`), 200);
      expect(card).toEqual(created);
    }
  });

  it('answers 404 for a card that does not exist and 400 for an id that is not one', async () => {
    const team = await makeTeam(t);
    expectError(await team.as.admin.get('/api/cards/999999'), 404);
    expectError(await team.as.admin.get('/api/cards/0'), 400);
    expectError(await team.as.admin.get('/api/cards/x1'), 400);
  });
});

describe('PATCH /api/cards/{id}', () => {
  it('edits title, description and due date (200 with the full card); the version grows', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const before = team.cards[0];
    const res = await team.as.member.patch(`/api/cards/${before.id}`, {
      title: 'New title',
      description: 'New description',
      dueAt: '2031-05-06T07:08:09.000Z',
    });
    const card = expectCardResponse(res, 200);
    expect(card).toMatchObject({ id: before.id, title: 'New title', description: 'New description', dueAt: '2031-05-06T07:08:09.000Z' });
    expect(card.version).toBeGreaterThan(before.version);
    expect(Date.parse(card.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    expect(card.createdAt).toBe(before.createdAt);
    expect((await team.as.admin.get(`/api/cards/${before.id}`)).json()).toEqual(card);

    const cleared = expectCardResponse(await team.as.member.patch(`/api/cards/${before.id}`, { dueAt: null }), 200);
    expect(cleared.dueAt).toBeNull();
    expect(cleared.title).toBe('New title');
    expect(cleared.version).toBeGreaterThan(card.version);
  });

  it('records card.updated, or card.archived, with the card as it is after; refusals write nothing and keep their words', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a] = team.cards;
    const edited = expectCardResponse(await team.as.member.patch(`/api/cards/${a.id}`, { title: 'Edited' }), 200);
    const archived = expectCardResponse(await team.as.member.patch(`/api/cards/${a.id}`, { archived: true }), 200);
    const log = (await team.as.admin.get(`/api/boards/${team.board.id}/activity`)).json().activities as { type: string; data: { cardId: number; listId: number; card: { title: string; archived: boolean; version: number } } }[];
    const mine = log.filter((x) => x.data.cardId === a.id && x.type !== 'card.created');
    expect(mine.map((x) => [x.type, x.data.listId, x.data.card.title, x.data.card.archived, x.data.card.version])).toEqual([
      ['card.archived', team.list.id, 'Edited', true, archived.version],
      ['card.updated', team.list.id, 'Edited', false, edited.version],
    ]);
    expectError(await team.as.member.patch(`/api/cards/${a.id}`, { title: 'Stale', version: edited.version }), 409, new RegExp(`^card: changed since version ${edited.version} \\(now ${archived.version}\\)`));
    expectError(await team.as.observer.patch(`/api/cards/${a.id}`, { title: 'Observed' }), 403, /\(observer\) does not allow card\.write/);
    expectError(await team.as.stranger.patch(`/api/cards/${a.id}`, { title: 'Stranger' }), 404, /^card: not found$/);
    expectError(await team.as.member.patch('/api/cards/999999999', { title: 'Nobody' }), 404, /^card: not found$/);
    expect((await team.as.member.get(`/api/cards/${a.id}`)).json()).toEqual(archived);
  });

  it('archives a card: the others close up, the board fetch leaves it out, it stays readable', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const res = await team.as.member.patch(`/api/cards/${b.id}`, { archived: true });
    expect(expectCardResponse(res, 200)).toMatchObject({ id: b.id, archived: true });
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, c.id]);
    expect((await team.as.admin.get(`/api/cards/${c.id}`)).json().position).toBe(1);
    const fetched = expectCardResponse(await team.as.admin.get(`/api/cards/${b.id}`), 200);
    expect(fetched.archived).toBe(true);
  });

  it('restores an archived card into its list, positions still 0..n-1', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    expectStatus(await team.as.admin.patch(`/api/cards/${a.id}`, { archived: true }), 200);
    const restored = expectCardResponse(await team.as.admin.patch(`/api/cards/${a.id}`, { archived: false }), 200);
    expect(restored.archived).toBe(false);
    const ids = await cardIdsOfList(team.as.admin, team.board.id, team.list.id);
    expect([...ids].sort()).toEqual([a.id, b.id, c.id].sort());
    expect(ids.indexOf(a.id)).toBe(restored.position);
  });

  it.each([
    ['an empty title', { title: '' }, 'title'],
    ['a title of 513 characters', { title: 't'.repeat(513) }, 'title'],
    ['a description of 16385 characters', { description: 'd'.repeat(16_385) }, 'description'],
    ['a due date that is not a timestamp', { dueAt: 'next tuesday' }, 'dueAt'],
    ['archived that is not a boolean', { archived: 'true' }, 'archived'],
    ['a version that is not an integer', { title: 'ok', version: 'one' }, 'version'],
    ['an unknown field', { listId: 1 }, 'listId'],
  ])('refuses %s with 400 naming the field, applying nothing', async (_what, payload, field) => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectFieldError(await team.as.admin.patch(`/api/cards/${card.id}`, payload), field);
    expect((await team.as.admin.get(`/api/cards/${card.id}`)).json()).toEqual(card);
  });

  it('applies nothing of a request that fails: a good title with a bad due date', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectFieldError(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Half?', archived: true, dueAt: 'soon' }), 'dueAt');
    expect((await team.as.admin.get(`/api/cards/${card.id}`)).json()).toEqual(card);
  });

  it('is refused to an observer (403)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.observer.patch(`/api/cards/${team.cards[0].id}`, { title: 'x' }), 403);
    expectError(await team.as.observer.patch(`/api/cards/${team.cards[0].id}`, { archived: true }), 403);
    expect((await team.as.admin.get(`/api/cards/${team.cards[0].id}`)).json()).toEqual(team.cards[0]);
  });
});

describe('DELETE /api/cards/{id}', () => {
  it('lets a board admin delete a card (204, no body); it is gone and the list closes up', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    expectNoContent(await team.as.admin.del(`/api/cards/${b.id}`));
    expectError(await team.as.admin.get(`/api/cards/${b.id}`), 404);
    expectError(await team.as.admin.del(`/api/cards/${b.id}`), 404);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, c.id]);
    expect((await team.as.admin.get(`/api/boards/${team.board.id}/archived`)).json().cards).toEqual([]);
  });

  it('is for board admins only: a member or an observer gets 403', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.member.del(`/api/cards/${team.cards[0].id}`), 403);
    expectError(await team.as.observer.del(`/api/cards/${team.cards[0].id}`), 403);
    expect((await team.as.admin.get(`/api/cards/${team.cards[0].id}`)).json()).toEqual(team.cards[0]);
  });

  it('deletes an archived card too', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectStatus(await team.as.admin.patch(`/api/cards/${team.cards[0].id}`, { archived: true }), 200);
    expectNoContent(await team.as.admin.del(`/api/cards/${team.cards[0].id}`));
    expect((await team.as.admin.get(`/api/boards/${team.board.id}/archived`)).json().cards).toEqual([]);
  });
});

describe('optimistic concurrency', () => {
  it('the version grows with every change, and ETag follows it', async () => {
    const team = await makeTeam(t);
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const v0 = await makeCard(team.as.admin, team.list.id, 'Versioned');
    const v1 = expectCardResponse(await team.as.admin.patch(`/api/cards/${v0.id}`, { title: 'Versioned 1' }), 200);
    const v2 = expectCardResponse(await team.as.admin.post(`/api/cards/${v0.id}/move`, { listId: doing.id }), 200);
    const v3 = expectCardResponse(await team.as.admin.patch(`/api/cards/${v0.id}`, { archived: true }), 200);
    const v4 = expectCardResponse(await team.as.admin.patch(`/api/cards/${v0.id}`, { archived: false }), 200);
    const versions = [v0, v1, v2, v3, v4].map((c) => c.version);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
    const fetched = await team.as.admin.get(`/api/cards/${v0.id}`);
    expect(fetched.headers.etag).toBe(`"${v4.version}"`);
  });

  it('PATCH with If-Match: the current version passes; a stale one is 409 and changes nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const ok = expectCardResponse(await team.as.member.patch(`/api/cards/${card.id}`, { title: 'First' }, { 'if-match': `"${card.version}"` }), 200);
    const stale = await team.as.member.patch(`/api/cards/${card.id}`, { title: 'Second' }, { 'if-match': `"${card.version}"` });
    expectError(stale, 409);
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json()).toEqual(ok);
  });

  it('accepts the bare number in If-Match', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectCardResponse(await team.as.member.patch(`/api/cards/${card.id}`, { title: 'Bare' }, { 'if-match': String(card.version) }), 200);
    expectError(await team.as.member.patch(`/api/cards/${card.id}`, { title: 'Again' }, { 'if-match': String(card.version) }), 409);
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json().title).toBe('Bare');
  });

  it('accepts "version" in the body of PATCH', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const ok = expectCardResponse(await team.as.member.patch(`/api/cards/${card.id}`, { title: 'Body version', version: card.version }), 200);
    expectError(await team.as.member.patch(`/api/cards/${card.id}`, { description: 'lost update', version: card.version }), 409);
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json()).toEqual(ok);
  });

  it('move with a stale If-Match or body version is 409 and moves nothing; the current one moves', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const edited = expectCardResponse(await team.as.admin.patch(`/api/cards/${a.id}`, { title: 'Changed meanwhile' }), 200);

    expectError(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: doing.id }, { 'if-match': `"${a.version}"` }), 409);
    expectError(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: doing.id, version: a.version }), 409);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, b.id]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, doing.id)).toEqual([]);

    const moved = expectCardResponse(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: doing.id, version: edited.version }), 200);
    expect(moved.listId).toBe(doing.id);
    const back = await team.as.member.post(`/api/cards/${a.id}/move`, { listId: team.list.id, position: 0 }, { 'if-match': `"${moved.version}"` });
    expect(expectCardResponse(back, 200)).toMatchObject({ listId: team.list.id, position: 0 });
  });

  it('DELETE with a stale If-Match is 409 and the card stays', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const edited = expectCardResponse(await team.as.admin.patch(`/api/cards/${card.id}`, { title: 'Edited' }), 200);
    expectError(await team.as.admin.del(`/api/cards/${card.id}`, { 'if-match': `"${card.version}"` }), 409);
    expectStatus(await team.as.admin.get(`/api/cards/${card.id}`), 200);
    expectNoContent(await team.as.admin.del(`/api/cards/${card.id}`, { 'if-match': `"${edited.version}"` }));
  });
});
