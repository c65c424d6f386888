import { describe, expect, it } from 'vitest';
import { makeBoard } from '../../factories.js';
import {
  BOARD_TEST_ENV,
  boardActivities,
  cardIdsOfList,
  expectCardResponse,
  expectError,
  expectNoContent,
  expectStatus,
  makeCards,
  makeLabel,
  makeList,
  makeTeam,
} from '../../board-factories.js';
import { useTestApp } from '../../helper.js';

/** Issue #46 items 2 and 3: where a restored card comes back, deleting a list, labels across boards. */
const t = useTestApp(BOARD_TEST_ENV);

describe('restoring a card (PATCH /api/cards/{id} {archived: false})', () => {
  it('comes back at its stored position in its list', async () => {
    const team = await makeTeam(t, { cards: 4 });
    const [a, b, c, d] = team.cards;
    expectStatus(await team.as.member.patch(`/api/cards/${b.id}`, { archived: true }), 200);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, c.id, d.id]);
    const restored = expectCardResponse(await team.as.member.patch(`/api/cards/${b.id}`, { archived: false }), 200);
    expect(restored).toMatchObject({ listId: team.list.id, position: 1, archived: false });
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, b.id, c.id, d.id]);
  });

  it('is clamped to the list’s length when the list has fewer cards now', async () => {
    const team = await makeTeam(t, { cards: 4 });
    const [a, b, c, d] = team.cards;
    expectStatus(await team.as.member.patch(`/api/cards/${d.id}`, { archived: true }), 200);
    expectStatus(await team.as.member.patch(`/api/cards/${c.id}`, { archived: true }), 200);
    expectStatus(await team.as.member.patch(`/api/cards/${b.id}`, { archived: true }), 200);
    const restored = expectCardResponse(await team.as.member.patch(`/api/cards/${d.id}`, { archived: false }), 200);
    expect(restored.position).toBe(1);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([a.id, d.id]);
  });

  it('comes back at the end of the first open list when its own is archived, and the activity says so', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a] = team.cards;
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    const [x, y] = await makeCards(team.as.admin, doing.id, 2, 'doing');
    expectStatus(await team.as.member.patch(`/api/cards/${a.id}`, { archived: true }), 200);
    expectStatus(await team.as.member.patch(`/api/lists/${team.list.id}`, { archived: true }), 200);
    const restored = expectCardResponse(await team.as.member.patch(`/api/cards/${a.id}`, { archived: false }), 200);
    expect(restored).toMatchObject({ listId: doing.id, position: 2, archived: false });
    expect(await cardIdsOfList(team.as.admin, team.board.id, doing.id)).toEqual([x.id, y.id, a.id]);
    const activity = (await boardActivities(team.as.admin, team.board.id)).find((e) => e.type === 'card.updated' && e.data.cardId === a.id);
    expect(activity.data).toMatchObject({ listId: doing.id, restoredFrom: team.list.id });
  });

  it('is refused when the board has no open list (400), changing nothing', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const [a] = team.cards;
    expectStatus(await team.as.member.patch(`/api/cards/${a.id}`, { archived: true }), 200);
    expectStatus(await team.as.member.patch(`/api/lists/${team.list.id}`, { archived: true }), 200);
    expectError(await team.as.member.patch(`/api/cards/${a.id}`, { archived: false }), 400, /^card: its list is archived and the board has no open list/);
    expect((await team.as.admin.get(`/api/cards/${a.id}`)).json()).toMatchObject({ archived: true, listId: team.list.id });
  });
});

describe('DELETE /api/lists/{id}', () => {
  it('deletes a list with its cards (admins), the other lists close up, the activity counts the cards', async () => {
    const team = await makeTeam(t, { cards: 3 });
    const doing = await makeList(team.as.admin, team.board.id, 'Doing');
    expectStatus(await team.as.member.patch(`/api/cards/${team.cards[0].id}`, { archived: true }), 200);
    expectError(await team.as.member.del(`/api/lists/${team.list.id}`), 403, /does not allow list\.delete/);
    expectNoContent(await team.as.admin.del(`/api/lists/${team.list.id}`));
    expectError(await team.as.admin.get(`/api/lists/${team.list.id}`), 404);
    expectError(await team.as.admin.get(`/api/cards/${team.cards[0].id}`), 404);
    expect((await team.as.admin.get(`/api/lists/${doing.id}`)).json().position).toBe(0);
    const [latest] = await boardActivities(team.as.admin, team.board.id);
    expect(latest).toMatchObject({ type: 'list.deleted', data: { listId: team.list.id, cards: 3 } });
  });
});

describe('labels on a move to another board', () => {
  it('are mapped by name and colour: the board’s own label, or a new one there', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [a, b] = team.cards;
    const urgent = await makeLabel(team.as.admin, team.board.id, 'Urgent', 'red');
    const later = await makeLabel(team.as.admin, team.board.id, 'Later', 'blue');
    for (const card of [a, b]) for (const label of [urgent, later]) expectStatus(await team.as.admin.put(`/api/cards/${card.id}/labels/${label.id}`), 200);
    const other = await makeBoard(t.db, team.admin.id, [], 'Other');
    const there = await makeList(team.as.admin, other.id, 'There');
    const theirUrgent = await makeLabel(team.as.admin, other.id, 'Urgent', 'red');
    await makeLabel(team.as.admin, other.id, 'Later', 'green'); // same name, other colour: not the same label

    const moved = expectCardResponse(await team.as.admin.post(`/api/cards/${a.id}/move`, { listId: there.id }), 200);
    const labels = (await team.as.admin.get(`/api/boards/${other.id}`)).json().labels as { id: number; name: string; color: string }[];
    const newLater = labels.find((l) => l.name === 'Later' && l.color === 'blue')!;
    expect(newLater).toBeDefined();
    expect([...moved.labelIds].sort()).toEqual([theirUrgent.id, newLater.id].sort());

    // A list moved with its card: the same rule, the label created once.
    const listMove = await team.as.admin.post(`/api/lists/${team.list.id}/move`, { position: 0, boardId: other.id });
    expectStatus(listMove, 200);
    const bThere = (await team.as.admin.get(`/api/cards/${b.id}`)).json();
    expect([...bThere.labelIds].sort()).toEqual([theirUrgent.id, newLater.id].sort());
    const after = (await team.as.admin.get(`/api/boards/${other.id}`)).json().labels as { name: string; color: string }[];
    expect(after.filter((l) => l.name === 'Later' && l.color === 'blue')).toHaveLength(1);
  });
});
