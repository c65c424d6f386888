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
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/** Assignees: board members on cards (SPEC §3, PUT/DELETE /cards/{id}/members/{userId}). */
const t = useTestApp(BOARD_TEST_ENV);

describe('PUT /api/cards/{id}/members/{userId}', () => {
  it('assigns a board member (200 with the full card); the version grows', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const after = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/members/${team.member.id}`), 200);
    expect(after.memberIds).toEqual([team.member.id]);
    expect(after.version).toBeGreaterThan(card.version);
    expect(await getCard(team.as.observer, card.id)).toEqual(after);
  });

  it('keeps memberIds ordered by user id, whatever the order of assignment', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const ids = [team.admin.id, team.member.id, team.observer.id];
    for (const id of [...ids].reverse()) expectStatus(await team.as.admin.put(`/api/cards/${card.id}/members/${id}`), 200);
    expect((await getCard(team.as.admin, card.id)).memberIds).toEqual([...ids].sort((a, b) => a - b));
  });

  it('assigns an observer (a member of the board) when an admin or member asks', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = expectCardResponse(await team.as.admin.put(`/api/cards/${team.cards[0].id}/members/${team.observer.id}`), 200);
    expect(card.memberIds).toEqual([team.observer.id]);
  });

  it('is idempotent: a repeat answers 200 with the same version and records nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const first = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/members/${team.admin.id}`), 200);
    const count = (await boardActivities(team.as.admin, team.board.id)).length;
    const again = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/members/${team.admin.id}`), 200);
    expect(again.version).toBe(first.version);
    expect(again.memberIds).toEqual([team.admin.id]);
    expect((await boardActivities(team.as.admin, team.board.id)).length).toBe(count);
  });

  it('records card.member_added with cardId, userId and the card summary', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const after = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/members/${team.member.id}`), 200);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'card.member_added', actor: { userId: team.member.id }, data: { cardId: card.id, userId: team.member.id } });
    expect(Object.keys(a.data.card).sort()).toEqual([...CARD_SUMMARY_KEYS].sort());
    expect(a.data.card).toMatchObject({ id: card.id, memberIds: [team.member.id], version: after.version });
  });

  it('refuses a user who is not a member of the board, or does not exist, with 400 naming userId', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectFieldError(await team.as.admin.put(`/api/cards/${card.id}/members/${team.stranger.id}`), 'userId');
    expectFieldError(await team.as.admin.put(`/api/cards/${card.id}/members/999999`), 'userId');
    const now = await getCard(team.as.admin, card.id);
    expect(now.memberIds).toEqual([]);
    expect(now.version).toBe(card.version);
  });

  it('refuses a member of another board who is not on this one', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const elsewhere = await makeUser(t.db);
    await makeBoard(t.db, team.admin.id, [{ userId: elsewhere.id, role: 'member' }]);
    expectFieldError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/members/${elsewhere.id}`), 'userId');
  });

  it('is 403 to an observer caller and a read-only key, 404 to a stranger and for a missing card', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectError(await team.as.observer.put(`/api/cards/${card.id}/members/${team.observer.id}`), 403);
    const readOnly = client(t.app, (await makeKey(t.db, team.admin.id, { permission: 'read' })).auth);
    expectError(await readOnly.put(`/api/cards/${card.id}/members/${team.admin.id}`), 403);
    expectError(await team.as.stranger.put(`/api/cards/${card.id}/members/${team.stranger.id}`), 404);
    expectError(await team.as.admin.put(`/api/cards/999999/members/${team.admin.id}`), 404);
    expectError(await client(t.app, {}).put(`/api/cards/${card.id}/members/${team.admin.id}`), 401);
    expect((await getCard(team.as.admin, card.id)).memberIds).toEqual([]);
  });

  it('is 404 to a key limited to other boards', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const other = await makeBoard(t.db, team.admin.id);
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [other.id] })).auth);
    expectError(await limited.put(`/api/cards/${team.cards[0].id}/members/${team.admin.id}`), 404);
  });
});

describe('DELETE /api/cards/{id}/members/{userId}', () => {
  it('unassigns (204), records card.member_removed; a repeat is 204 and records nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/members/${team.admin.id}`), 200);
    const both = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/members/${team.member.id}`), 200);

    expectNoContent(await team.as.member.del(`/api/cards/${card.id}/members/${team.admin.id}`));
    const after = await getCard(team.as.admin, card.id);
    expect(after.memberIds).toEqual([team.member.id]);
    expect(after.version).toBeGreaterThan(both.version);
    const a = await lastActivity(team.as.admin, team.board.id);
    expect(a).toMatchObject({ type: 'card.member_removed', data: { cardId: card.id, userId: team.admin.id, card: { id: card.id, memberIds: [team.member.id] } } });

    const count = (await boardActivities(team.as.admin, team.board.id)).length;
    expectNoContent(await team.as.member.del(`/api/cards/${card.id}/members/${team.admin.id}`));
    expect((await getCard(team.as.admin, card.id)).version).toBe(after.version);
    expect((await boardActivities(team.as.admin, team.board.id)).length).toBe(count);
  });

  it('is 403 to an observer and 404 to a stranger; the assignee stays', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectStatus(await team.as.admin.put(`/api/cards/${card.id}/members/${team.observer.id}`), 200);
    expectError(await team.as.observer.del(`/api/cards/${card.id}/members/${team.observer.id}`), 403);
    expectError(await team.as.stranger.del(`/api/cards/${card.id}/members/${team.observer.id}`), 404);
    expect((await getCard(team.as.admin, card.id)).memberIds).toEqual([team.observer.id]);
  });
});

describe('removing a member from the board', () => {
  it('unassigns them from every card of that board (versions grow), and from no other board', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const c = await makeCard(team.as.admin, doing.id, 'c');
    expectStatus(await team.as.admin.patch(`/api/cards/${b.id}`, { archived: true }), 200);
    for (const card of [a, b, c]) expectStatus(await team.as.admin.put(`/api/cards/${card.id}/members/${team.member.id}`), 200);
    expectStatus(await team.as.admin.put(`/api/cards/${a.id}/members/${team.admin.id}`), 200);
    // The same member on another board keeps their assignment there.
    const other = await makeBoard(t.db, team.admin.id, [{ userId: team.member.id, role: 'member' }]);
    const otherList = await makeList(team.as.admin, other.id, 'Elsewhere');
    const otherCard = await makeCard(team.as.admin, otherList.id, 'elsewhere');
    const otherAssigned = expectCardResponse(await team.as.admin.put(`/api/cards/${otherCard.id}/members/${team.member.id}`), 200);
    const before = new Map<number, any>();
    for (const card of [a, b, c]) before.set(card.id, await getCard(team.as.admin, card.id));

    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`));

    for (const card of [a, b, c]) {
      const now = await getCard(team.as.admin, card.id);
      expect(now.memberIds).not.toContain(team.member.id);
      expect(now.version).toBeGreaterThan(before.get(card.id).version);
    }
    expect((await getCard(team.as.admin, a.id)).memberIds).toEqual([team.admin.id]);
    const board = await fetchBoard(team.as.admin, team.board.id);
    for (const list of board.lists) for (const card of list.cards) expect(card.memberIds).not.toContain(team.member.id);
    expect(await getCard(team.as.admin, otherCard.id)).toEqual(otherAssigned);
    // No longer a member: can no longer be assigned.
    expectFieldError(await team.as.admin.put(`/api/cards/${a.id}/members/${team.member.id}`), 'userId');
  });
});

describe('assignees in the board fetch', () => {
  it('shows memberIds on every card summary as GET /cards/{id} does', async () => {
    const team = await makeTeam(t, { cards: 2 });
    expectStatus(await team.as.member.put(`/api/cards/${team.cards[0].id}/members/${team.observer.id}`), 200);
    const full = await getCard(team.as.admin, team.cards[0].id);
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.lists[0].cards[0].memberIds).toEqual([team.observer.id]);
    expect(board.lists[0].cards[0].version).toBe(full.version);
    expect(board.lists[0].cards[1].memberIds).toEqual([]);
  });
});

describe('assignees under concurrent requests', () => {
  it('the same PUT sent six times at once: all 200, the user once, one card.member_added', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const results = await Promise.all(Array.from({ length: 6 }, () => team.as.member.put(`/api/cards/${card.id}/members/${team.observer.id}`)));
    for (const r of results) expect(expectCardResponse(r, 200).memberIds).toEqual([team.observer.id]);
    expect((await getCard(team.as.admin, card.id)).memberIds).toEqual([team.observer.id]);
    const added = (await boardActivities(team.as.admin, team.board.id)).filter((a) => a.type === 'card.member_added');
    expect(added).toHaveLength(1);
  });

  it('the same DELETE sent four times at once: all 204, one card.member_removed', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    expectStatus(await team.as.member.put(`/api/cards/${card.id}/members/${team.admin.id}`), 200);
    const results = await Promise.all(Array.from({ length: 4 }, () => team.as.member.del(`/api/cards/${card.id}/members/${team.admin.id}`)));
    for (const r of results) expectNoContent(r);
    expect((await getCard(team.as.admin, card.id)).memberIds).toEqual([]);
    const removed = (await boardActivities(team.as.admin, team.board.id)).filter((a) => a.type === 'card.member_removed');
    expect(removed).toHaveLength(1);
  });

  it('refuses a user id that is not an id with 400', async () => {
    const team = await makeTeam(t, { cards: 1 });
    expectError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/members/abc`), 400);
    expectError(await team.as.admin.put(`/api/cards/${team.cards[0].id}/members/-1`), 400);
  });
});
