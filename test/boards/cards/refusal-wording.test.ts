import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, client, expectStatus, makeCards, makeList, makeTeam, type Res } from '../../board-factories.js';
import { makeBoard, makeKey } from '../../factories.js';
import { useTestApp } from '../../helper.js';

// A rule refuses in the same words whichever write runs into it, whether the refusal is worded by
// TypeScript (create, copy, delete, a card part) or by a card statement (move and edit, in SQL).
// The field a message names is the caller's own (a path's list, a body's listId); the words after it are the rule's.
const t = useTestApp(BOARD_TEST_ENV);

/** The status and the words of a refusal after its field (`listId: the list is …` → `the list is …`). */
function refusal(res: Res) {
  const error = String(res.json().error);
  return { status: res.statusCode, field: error.split(':')[0], words: error.slice(error.indexOf(':') + 1).trim() };
}

describe('one rule, one wording', () => {
  it('an archived list: create, copy and move say the same', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const old = await makeList(team.as.admin, team.board.id, 'Old');
    expectStatus(await team.as.admin.patch(`/api/lists/${old.id}`, { archived: true }), 200);
    const card = team.cards[0];
    const create = refusal(await team.as.member.post(`/api/lists/${old.id}/cards`, { title: 'x' }));
    const copy = refusal(await team.as.member.post(`/api/cards/${card.id}/copy`, { listId: old.id }));
    const move = refusal(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: old.id }));
    expect(create).toMatchObject({ status: 400, field: 'list' });
    expect(copy).toMatchObject({ status: 400, field: 'listId' });
    expect(move).toEqual(copy);
    expect(create.words).toBe(move.words);
  });

  it('a position out of range: create, copy and move say the same', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const other = await makeList(team.as.admin, team.board.id, 'Other');
    await makeCards(team.as.admin, other.id, 1);
    const card = team.cards[0];
    // Every one of them has room for positions 0..1 in the list "Other" (one card there).
    const create = refusal(await team.as.member.post(`/api/lists/${other.id}/cards`, { title: 'x', position: 5 }));
    const copy = refusal(await team.as.member.post(`/api/cards/${card.id}/copy`, { listId: other.id, position: 5 }));
    const move = refusal(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: other.id, position: 5 }));
    expect(create).toEqual({ status: 400, field: 'position', words: 'must be between 0 and 1' });
    expect(copy).toEqual(create);
    expect(move).toEqual(create);
  });

  it('a stale version: edit and move (SQL), delete and a card part (TypeScript) say the same', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const card = team.cards[0];
    const stale = { 'if-match': `"${card.version + 7}"` };
    const said = [
      refusal(await team.as.member.patch(`/api/cards/${card.id}`, { title: 'x' }, stale)),
      refusal(await team.as.member.post(`/api/cards/${card.id}/move`, { listId: team.list.id }, stale)),
      refusal(await team.as.admin.del(`/api/cards/${card.id}`, stale)),
      refusal(await team.as.member.post(`/api/cards/${card.id}/checklists`, { name: 'x' }, stale)),
    ];
    for (const one of said) expect(one).toEqual({ status: 409, field: 'card', words: `changed since version ${card.version + 7} (now ${card.version}); fetch it again` });
  });

  it('a key limited to chosen boards: copy (policy.ts asking tb_cross_board) and move (its statement asking it) to another board say the same', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const chosen2 = await makeBoard(t.db, team.admin.id);
    const chosen2List = await makeList(team.as.admin, chosen2.id, 'Chosen too');
    const limited = client(t.app, (await makeKey(t.db, team.admin.id, { boardIds: [team.board.id, chosen2.id] })).auth);
    const copy = await limited.post(`/api/cards/${team.cards[0].id}/copy`, { listId: chosen2List.id });
    const move = await limited.post(`/api/cards/${team.cards[0].id}/move`, { listId: chosen2List.id });
    expect(copy.statusCode).toBe(403);
    expect(move.json()).toEqual(copy.json());
  });
});
