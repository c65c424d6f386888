import { describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  cardIdsOfList,
  client,
  expectCardResponse,
  expectError,
  expectFieldError,
  expectStatus,
  idsOf,
  makeCard,
  makeCards,
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { makeBoard, makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Cards: move and copy, within a list, across lists and across boards, and limited keys (SPEC §3). */
const t = useTestApp(BOARD_TEST_ENV);

describe('POST /api/cards/{id}/move', () => {
  it('moves a card within its list (200 with the full card); the others shift', async () => {
    const team = await makeTeam(t, { cards: 4 });
    const [a, b, c, d] = team.cards;
    const moved = expectCardResponse(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: team.list.id, position: 2 }), 200);
    expect(moved).toMatchObject({ id: a.id, listId: team.list.id, boardId: team.board.id, position: 2 });
    expect(moved.version).toBeGreaterThan(a.version);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([b.id, c.id, a.id, d.id]);

    // n = 3 other cards: position 3 is the end, 4 is out of range.
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${b.id}/move`, { listId: team.list.id, position: 3 }), 200).position).toBe(3);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([c.id, a.id, d.id, b.id]);
    expectFieldError(await team.as.member.post(`/api/cards/${b.id}/move`, { listId: team.list.id, position: 4 }), 'position');
    // Omitted: the end.
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${c.id}/move`, { listId: team.list.id }), 200).position).toBe(3);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, d.id, b.id, c.id]);
  });

  it('moves a card to another list at a position 0..n; the source closes up, the target shifts', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b, c] = team.cards;
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const [x, y] = await makeCards(team.as.admin, doing.id, 2, 'x');

    const first = expectCardResponse(await team.as.member.post(`/api/cards/${b.id}/move`, { listId: doing.id, position: 0 }), 200);
    expect(first).toMatchObject({ id: b.id, listId: doing.id, position: 0, boardId: team.board.id });
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, c.id]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, doing.id)).toEqual([b.id, x.id, y.id]);

    // n = 3 cards in the target: 3 is the end, 4 is out of range.
    expectFieldError(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: doing.id, position: 4 }), 'position');
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: doing.id, position: 3 }), 200).position).toBe(3);
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${c.id}/move`, { listId: doing.id }), 200).position).toBe(4);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, doing.id)).toEqual([b.id, x.id, y.id, a.id, c.id]);
    // Into the now empty list: only 0 is in range.
    expectFieldError(await team.as.member.post(`/api/cards/${x.id}/move`, { listId: team.list.id, position: 1 }), 'position');
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${x.id}/move`, { listId: team.list.id, position: 0 }), 200).position).toBe(0);
  });

  it.each([
    ['a missing listId', { position: 0 }, 'listId'],
    ['a listId that is not an id', { listId: 'todo', position: 0 }, 'listId'],
    ['a negative position', { position: -1 }, 'position'],
    ['a fractional position', { position: 0.5 }, 'position'],
    ['a position that is not a number', { position: 'first' }, 'position'],
    ['an unknown field', { position: 0, boardId: 1 }, 'boardId'],
  ])('refuses %s with 400 naming the field, moving nothing', async (_what, payload, field) => {
    const team = await makeTeam(t, { cards: 2 });
    const body = 'listId' in payload || field === 'listId' ? payload : { listId: team.list.id, ...payload };
    expectFieldError(await team.as.admin.post(`/api/cards/${team.cards[1].id}/move`, body), field);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(team.cards));
  });

  it('answers 404 for a target list that does not exist', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.admin.post(`/api/cards/${team.cards[0].id}/move`, { listId: 999999 }), 404);
  });

  it('moves a card to a list on another board the caller may write to: its boardId changes', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const other = await makeBoard(t.db, team.stranger.id, [{ userId: team.member.id, role: 'member' }]);
    const otherList = await makeList(team.as.stranger, other.id, 'Over there');
    const [there] = await makeCards(team.as.stranger, otherList.id, 1, 'there');

    const res = await team.as.member.post(`/api/cards/${team.cards[0].id}/move`, { listId: otherList.id, position: 1 });
    expect(expectCardResponse(res, 200)).toMatchObject({ id: team.cards[0].id, boardId: other.id, listId: otherList.id, position: 1 });
    expect(await cardIdsOfList(team.as.member, other.id, otherList.id)).toEqual([there.id, team.cards[0].id]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[1].id]);
    // Reachable through its new board only.
    expectStatus(await team.as.stranger.get(`/api/cards/${team.cards[0].id}`), 200);
    expectError(await team.as.admin.get(`/api/cards/${team.cards[0].id}`), 404);
  });

  it('refuses a target on a board where the caller is an observer (403) or not a member (404)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const watched = await makeBoard(t.db, team.stranger.id, [{ userId: team.member.id, role: 'observer' }]);
    const watchedList = await makeList(team.as.stranger, watched.id, 'Watched');
    const foreign = await makeBoard(t.db, team.stranger.id);
    const foreignList = await makeList(team.as.stranger, foreign.id, 'Foreign');
    const card = team.cards[0];
    expectError(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: watchedList.id }), 403);
    expectError(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: foreignList.id }), 404);
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json()).toEqual(card);
    expect(await cardIdsOfList(team.as.stranger, watched.id, watchedList.id)).toEqual([]);
  });

  it('refuses, writing nothing: an archived card or target list (400), a stale version (409), a card or list not there (404)', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const [a, b] = team.cards;
    const other = await makeList(team.as.admin, team.board.id, 'Other');
    const move = (id: number, body: object, headers = {}) => team.as.member.post(`/api/cards/${id}/move`, body, headers);
    expectError(await move(a.id, { listId: team.list.id, version: a.version + 1 }), 409, new RegExp(`^card: changed since version ${a.version + 1} \\(now ${a.version}\\)`));
    expectError(await move(a.id, { listId: other.id }, { 'if-match': `"${a.version + 5}"` }), 409, /^card: changed since version/);
    expectStatus(await team.as.member.patch(`/api/cards/${b.id}`, { archived: true }), 200);
    expectError(await move(b.id, { listId: other.id }), 400, /^card: is archived; restore it before moving it$/);
    expectStatus(await team.as.admin.patch(`/api/lists/${other.id}`, { archived: true }), 200);
    expectError(await move(a.id, { listId: other.id }), 400, /^listId: the list is archived; restore it before adding cards to it$/);
    expectError(await move(a.id, { listId: team.list.id, position: 2 }), 400, /^position: must be between 0 and 1$/);
    expectError(await move(999_999_999, { listId: team.list.id }), 404, /^card: not found$/);
    expectError(await move(a.id, { listId: 999_999_999 }), 404, /^list: not found$/);
    expectError(await team.as.observer.post(`/api/cards/${a.id}/move`, { listId: team.list.id }), 403, /\(observer\) does not allow card\.write/);
    expect((await team.as.member.get(`/api/cards/${a.id}`)).json()).toEqual(a);
    const log = (await team.as.admin.get(`/api/boards/${team.board.id}/activity`)).json();
    expect(log.activities.filter((x: { type: string }) => x.type === 'card.moved')).toEqual([]);
  });

  it('to where the card already is: 200 with the card as it was, no new version, no activity', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a] = team.cards;
    expect(expectCardResponse(await team.as.member.post(`/api/cards/${a.id}/move`, { listId: team.list.id, position: 0 }), 200)).toEqual(a);
    const log = (await team.as.admin.get(`/api/boards/${team.board.id}/activity`)).json();
    expect(log.activities.filter((x: { type: string }) => x.type === 'card.moved')).toEqual([]);
  });

  it('is refused to an observer (403)', async () => {
    const team = await makeTeam(t, { cards: 2 });
    expectError(await team.as.observer.post(`/api/cards/${team.cards[0].id}/move`, { listId: team.list.id, position: 1 }), 403);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(team.cards));
  });
});

describe('a key limited to chosen boards never moves or copies a card to another board', () => {
  async function limitedSetup() {
    const team = await makeTeam(t, { cards: 1 });
    const chosen2 = await makeBoard(t.db, team.admin.id);
    const chosen2List = await makeList(team.as.admin, chosen2.id, 'Chosen too');
    const outside = await makeBoard(t.db, team.admin.id);
    const outsideList = await makeList(team.as.admin, outside.id, 'Outside');
    const sameBoardList = await makeList(team.as.admin, team.board.id, 'Same board');
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [team.board.id, chosen2.id] })).auth);
    return { ...team, chosen2, chosen2List, outside, outsideList, sameBoardList, limited };
  }

  it('move: 404 to a board outside its boards, 403 to another of its boards, 200 within the board', async () => {
    const s = await limitedSetup();
    const card = s.cards[0];
    expectError(await s.limited.post(`/api/cards/${card.id}/move`, { listId: s.outsideList.id }), 404);
    expectError(await s.limited.post(`/api/cards/${card.id}/move`, { listId: s.chosen2List.id }), 403);
    expect((await s.as.admin.get(`/api/cards/${card.id}`)).json()).toEqual(card);
    const ok = expectCardResponse(await s.limited.post(`/api/cards/${card.id}/move`, { listId: s.sameBoardList.id }), 200);
    expect(ok).toMatchObject({ boardId: s.board.id, listId: s.sameBoardList.id, position: 0 });
    // The owner's unlimited key may move it across.
    expect(expectCardResponse(await s.as.admin.post(`/api/cards/${card.id}/move`, { listId: s.chosen2List.id }), 200).boardId).toBe(s.chosen2.id);
  });

  it('copy: 404 to a board outside its boards, 403 to another of its boards, 201 within the board', async () => {
    const s = await limitedSetup();
    const card = s.cards[0];
    expectError(await s.limited.post(`/api/cards/${card.id}/copy`, { listId: s.outsideList.id }), 404);
    expectError(await s.limited.post(`/api/cards/${card.id}/copy`, { listId: s.chosen2List.id }), 403);
    expect(await cardIdsOfList(s.as.admin, s.chosen2.id, s.chosen2List.id)).toEqual([]);
    expect(await cardIdsOfList(s.as.admin, s.outside.id, s.outsideList.id)).toEqual([]);
    const copy = expectCardResponse(await s.limited.post(`/api/cards/${card.id}/copy`, { listId: s.sameBoardList.id }), 201);
    expect(copy).toMatchObject({ boardId: s.board.id, listId: s.sameBoardList.id, title: card.title });
  });
});

describe('POST /api/cards/{id}/copy', () => {
  it('copies to the end of the source card\'s list by default (201 with the new full card)', async () => {
    const team = await makeTeam(t);
    const [a, b] = [await makeCard(team.as.admin, team.list.id, 'Original', 'Body'), await makeCard(team.as.admin, team.list.id, 'Other')];
    expectStatus(await team.as.admin.patch(`/api/cards/${a.id}`, { dueAt: '2030-01-01T00:00:00.000Z' }), 200);
    const source = (await team.as.admin.get(`/api/cards/${a.id}`)).json();

    const copy = expectCardResponse(await team.as.member.post(`/api/cards/${a.id}/copy`), 201);
    expect(copy.id).not.toBe(a.id);
    expect(copy).toMatchObject({
      boardId: team.board.id,
      listId: team.list.id,
      title: 'Original',
      description: 'Body',
      position: 2,
      archived: false,
      commentCount: 0,
      attachmentCount: 0,
      comments: [],
      attachments: [],
    });
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, b.id, copy.id]);
    expect((await team.as.admin.get(`/api/cards/${a.id}`)).json()).toMatchObject({ title: 'Original', position: 0, dueAt: source.dueAt });
  });

  it('copies with a new title, to another list, at a chosen position', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const [x, y] = await makeCards(team.as.admin, doing.id, 2, 'x');
    const copy = expectCardResponse(
      await team.as.member.post(`/api/cards/${team.cards[0].id}/copy`, { listId: doing.id, position: 1, title: 'The copy' }),
      201,
    );
    expect(copy).toMatchObject({ listId: doing.id, position: 1, title: 'The copy' });
    expect(await cardIdsOfList(team.as.admin, team.board.id, doing.id)).toEqual([x.id, copy.id, y.id]);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id]);
  });

  it('gives a copy of its own: changing the copy leaves the original as it was', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const original = team.cards[0];
    const copy = expectCardResponse(await team.as.admin.post(`/api/cards/${original.id}/copy`, {}), 201);
    expectStatus(await team.as.admin.patch(`/api/cards/${copy.id}`, { title: 'Changed copy' }), 200);
    expect((await team.as.admin.get(`/api/cards/${original.id}`)).json().title).toBe(original.title);
  });

  it('copies to a list on another board the caller may write to', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const other = await makeBoard(t.db, team.member.id);
    const otherList = await makeList(team.as.member, other.id, 'Mine');
    const copy = expectCardResponse(await team.as.member.post(`/api/cards/${team.cards[0].id}/copy`, { listId: otherList.id }), 201);
    expect(copy).toMatchObject({ boardId: other.id, listId: otherList.id, position: 0, title: team.cards[0].title });
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([team.cards[0].id]);
  });

  it.each([
    ['a position beyond the end', { position: 3 }, 'position'],
    ['a negative position', { position: -1 }, 'position'],
    ['an empty title', { title: '' }, 'title'],
    ['a title of 513 characters', { title: 't'.repeat(513) }, 'title'],
    ['a listId that is not an id', { listId: 'there' }, 'listId'],
    ['an unknown field', { description: 'not copyable this way' }, 'description'],
  ])('refuses %s with 400 naming the field, creating nothing', async (_what, payload, field) => {
    const team = await makeTeam(t, { cards: 2 });
    expectFieldError(await team.as.admin.post(`/api/cards/${team.cards[0].id}/copy`, payload), field);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(team.cards));
  });

  it('is refused to an observer (403)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.observer.post(`/api/cards/${team.cards[0].id}/copy`, {}), 403);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual(idsOf(team.cards));
  });
});
