import { expect, it } from 'vitest';
import type { ActivityView } from '../../../src/boards/activity/present-activity.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * EventBus.onCommitted, the typed hook a follow-up (an e-mail notification) hangs off: once per
 * activity this process commits, after the commit, from both write paths (a move is one SQL
 * statement; a list is created through changeBoard), never for a refused change, and a hook that
 * throws does not fail the request.
 */
const t = useTestApp();

it('calls the hook once per committed activity, typed by type, never for a refusal; a throwing hook fails nothing', async () => {
  const user = await makeUser(t.db);
  const board = await makeBoard(t.db, user.id);
  const { auth } = await makeKey(t.db, user.id);
  const seen: ActivityView[] = [];
  const moves: number[] = [];
  const stop = t.app.events.onCommitted((activity) => {
    seen.push(activity);
    // Narrowing on the type gives that type's data.
    if (activity.type === 'card.moved') moves.push(activity.data.to.position);
  });
  const stopThrowing = t.app.events.onCommitted(() => {
    throw new Error('a follow-up that fails');
  });
  try {
    const lists = [];
    for (const name of ['A', 'B']) {
      const made = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: auth, payload: { name } });
      expect(made.statusCode).toBe(201);
      lists.push(made.json().id as number);
    }
    const card = await t.app.inject({ method: 'POST', url: `/api/lists/${lists[0]}/cards`, headers: auth, payload: { title: 'c' } });
    expect(card.statusCode).toBe(201);
    const moved = await t.app.inject({ method: 'POST', url: `/api/cards/${card.json().id}/move`, headers: auth, payload: { listId: lists[1] } });
    expect(moved.statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'POST', url: `/api/cards/${card.json().id}/move`, headers: auth, payload: { listId: lists[0], position: 5 } });
    expect(refused.statusCode).toBe(400);

    expect(seen.map((a) => a.type)).toEqual(['list.created', 'list.created', 'card.created', 'card.moved']);
    expect(moves).toEqual([0]);
    const recorded = await t.db.prisma.activity.findMany({ where: { boardId: board.id }, orderBy: { id: 'asc' } });
    expect(seen.map((a) => a.id)).toEqual(recorded.map((a) => a.id));
  } finally {
    stop();
    stopThrowing();
  }
});
