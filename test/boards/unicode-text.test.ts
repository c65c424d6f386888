import { describe, expect, it } from 'vitest';
import { makeCard, makeTeam } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();

describe('one rule for every text field', () => {
  it('refuses unpaired surrogates with 400 naming the field, never a 500 or a silent U+FFFD', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const board = await makeBoard(t.db, user.id);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/boards/${board.id}`, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    for (const [field, value] of [['name', '\ud800'], ['description', 'a\udc00b']] as const) {
      const res = await patch({ [field]: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `${field}: must be valid Unicode (no unpaired surrogates)` });
    }
    const list = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name: 'x\ud83d' } });
    expect(list.statusCode).toBe(400);
    // A real surrogate pair (an emoji) is fine.
    expect((await patch({ name: 'Launch 🚀' })).json().name).toBe('Launch 🚀');
  });

  it('a text field value with a lone surrogate is not a 500', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'C');
    const f = (await team.as.admin.post(`/api/boards/${team.board.id}/custom-fields`, { name: 't', type: 'text' })).json();
    const res = await t.app.inject({ method: 'PUT', url: `/api/cards/${card.id}/fields/${f.id}`, headers: { ...team.keys.admin.auth, 'content-type': 'application/json' }, payload: '{"value":"\\ud800"}' });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});
