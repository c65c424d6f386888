import { expect, it } from 'vitest';
import type { ActivityView } from '../../../src/boards/activity/present-activity.js';
import type { Change } from '../../../src/platform/after-commit.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * A board change reports each activity it committed to the owner of what follows a commit
 * (platform/after-commit.ts, 'board.activity'), whose effects are the follow-ups (the board cache,
 * the streams, the notifier, tickets as cards): once per activity this process commits, after the
 * commit, from both write paths (a move is one SQL statement; a list is created through
 * changeBoard), never for a refused change. (That a runner which throws fails nothing is
 * test/platform/after-commit-effects.test.ts's.)
 */
const t = useTestApp();

it('reports each committed activity once, typed by type, never a refusal', async () => {
  const user = await makeUser(t.db);
  const board = await makeBoard(t.db, user.id);
  const { auth } = await makeKey(t.db, user.id);
  const seen: ActivityView[] = [];
  const moves: number[] = [];
  const effects = t.app.effects;
  const committed = effects.committed.bind(effects);
  effects.committed = (change: Change) => {
    if (change.kind === 'board.activity' && change.activity.boardId === board.id) {
      const { activity } = change;
      seen.push(activity);
      // Narrowing on the type gives that type's data.
      if (activity.type === 'card.moved') moves.push(activity.data.to.position);
    }
    return committed(change);
  };
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
    effects.committed = committed;
  }
});
