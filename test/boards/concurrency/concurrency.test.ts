import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOARD_TEST_ENV,
  expectCardSummary,
  expectCompactPositions,
  expectFullCard,
  fetchBoard,
  makeCards,
  makeList,
  makeTeam,
  seededRandom,
} from '../../board-factories.js';
import { useTestApp } from '../../helper.js';

/**
 * Positions stay 0..n-1 "whatever requests ran at the same time" (SPEC §3 Objects): real parallel
 * requests over HTTP against a listening server, then a check of every list and card.
 */
const t = useTestApp(BOARD_TEST_ENV);
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

interface Answer {
  status: number;
  body: any;
  etag: string | null;
}

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, etag: res.headers.get('etag') };
}

/** A 200 is the moved card; a 409 is exactly {error}; nothing else is acceptable. */
function expectMoveAnswer(a: Answer) {
  expect([200, 409], `${a.status} ${JSON.stringify(a.body)}`).toContain(a.status);
  if (a.status === 200) {
    expectFullCard(a.body);
    expect(a.etag).toBe(`"${a.body.version}"`);
  } else {
    expect(Object.keys(a.body)).toEqual(['error']);
  }
}

/**
 * The board is whole: each list's cards have positions 0..n-1, every expected card is in exactly
 * one list, and each card on its own says the list and position the board fetch shows.
 */
async function expectBoardConsistent(team: Awaited<ReturnType<typeof makeTeam>>, listIds: number[], cardIds: number[]) {
  const board = await fetchBoard(team.as.admin, team.board.id);
  expect(board.lists.map((l: any) => l.id).sort()).toEqual([...listIds].sort());
  expectCompactPositions(board.lists);
  const seen: number[] = [];
  const where = new Map<number, { listId: number; position: number }>();
  for (const list of board.lists) {
    expectCompactPositions(list.cards);
    for (const card of list.cards) {
      expectCardSummary(card);
      expect(card.listId).toBe(list.id);
      seen.push(card.id);
      where.set(card.id, { listId: list.id, position: card.position });
    }
  }
  expect(seen.length).toBe(new Set(seen).size);
  expect([...seen].sort((a, b) => a - b)).toEqual([...cardIds].sort((a, b) => a - b));
  const singles = await Promise.all(cardIds.map((id) => send('GET', `/api/cards/${id}`, team.keys.admin.auth)));
  singles.forEach((res, i) => {
    expect(res.status).toBe(200);
    expect({ listId: res.body.listId, position: res.body.position }).toEqual(where.get(cardIds[i]!));
  });
}

describe('parallel card moves', () => {
  it('dozens of simultaneous moves among three lists: every answer 200 or 409, positions 0..n-1, no card lost or doubled', async () => {
    const team = await makeTeam(t, { cards: 6 });
    const b = await makeList(team.as.admin, team.board.id, 'B');
    const c = await makeList(team.as.admin, team.board.id, 'C');
    const cards = [...team.cards, ...(await makeCards(team.as.admin, b.id, 6, 'b')), ...(await makeCards(team.as.admin, c.id, 6, 'c'))];
    const listIds = [team.list.id, b.id, c.id];
    const cardIds = cards.map((x: any) => x.id);
    const keys = [team.keys.admin.auth, team.keys.member.auth];
    const rnd = seededRandom(20240611);

    for (let round = 0; round < 3; round++) {
      const requests = Array.from({ length: 40 }, (_, i) => {
        const card = cardIds[Math.floor(rnd() * cardIds.length)]!;
        const listId = listIds[Math.floor(rnd() * listIds.length)]!;
        // 0 and "the end" are valid whatever else happened meanwhile.
        const body = rnd() < 0.5 ? { listId, position: 0 } : { listId };
        return send('POST', `/api/cards/${card}/move`, keys[i % keys.length]!, body);
      });
      const answers = await Promise.all(requests);
      answers.forEach(expectMoveAnswer);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      await expectBoardConsistent(team, listIds, cardIds);
    }
  });

  it('moves, creations and archivals at once in the same two lists keep both lists whole', async () => {
    const team = await makeTeam(t, { cards: 8 });
    const other = await makeList(team.as.admin, team.board.id, 'Other');
    const otherCards = await makeCards(team.as.admin, other.id, 8, 'o');
    const listIds = [team.list.id, other.id];
    const initial = [...team.cards, ...otherCards].map((x: any) => x.id);
    const rnd = seededRandom(7);
    // Four cards are archived meanwhile; the moves take the others (moving an archived card is another question).
    const toArchive = [initial[0]!, initial[3]!, initial[9]!, initial[14]!];
    const movable = initial.filter((id) => !toArchive.includes(id));

    const moves = Array.from({ length: 30 }, (_, i) => {
      const card = movable[Math.floor(rnd() * movable.length)]!;
      const listId = listIds[i % 2]!;
      return send('POST', `/api/cards/${card}/move`, team.keys.member.auth, rnd() < 0.5 ? { listId, position: 0 } : { listId });
    });
    const creations = Array.from({ length: 12 }, (_, i) =>
      send('POST', `/api/lists/${listIds[i % 2]}/cards`, team.keys.admin.auth, { title: `new ${i}` }),
    );
    const archivals = toArchive.map((id) => send('PATCH', `/api/cards/${id}`, team.keys.admin.auth, { archived: true }));
    const [moveAnswers, createAnswers, archiveAnswers] = await Promise.all([Promise.all(moves), Promise.all(creations), Promise.all(archivals)]);

    moveAnswers.forEach(expectMoveAnswer);
    for (const a of createAnswers) expect([201, 409], `${a.status} ${JSON.stringify(a.body)}`).toContain(a.status);
    for (const a of archiveAnswers) expect([200, 409], `${a.status} ${JSON.stringify(a.body)}`).toContain(a.status);
    const created = createAnswers.filter((a) => a.status === 201).map((a) => a.body.id);
    const archived = toArchive.filter((_, i) => archiveAnswers[i]!.status === 200);
    const active = [...initial.filter((id) => !archived.includes(id)), ...created];
    await expectBoardConsistent(team, listIds, active);
  });

  it('of simultaneous moves of one card with the same If-Match, exactly one wins; the others are 409', async () => {
    const team = await makeTeam(t, { cards: 10 });
    const other = await makeList(team.as.admin, team.board.id, 'Other');
    const listIds = [team.list.id, other.id];
    // Three callers per card, each sending the version it last saw, each asking for a real change
    // (all cards start in the first list): the first to run wins, the version moves on, the rest lose.
    const withVersions = team.cards.flatMap((card: any) =>
      [0, 1, 2].map((j) =>
        send(
          'POST',
          `/api/cards/${card.id}/move`,
          { ...(j % 2 ? team.keys.member.auth : team.keys.admin.auth), 'if-match': `"${card.version}"` },
          { listId: other.id, position: j === 1 ? 0 : undefined },
        ).then((a) => ({ card: card.id, ...a })),
      ),
    );
    const versioned = await Promise.all(withVersions);
    for (const card of team.cards) {
      const answers = versioned.filter((v) => v.card === card.id);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
      answers.forEach(expectMoveAnswer);
    }
    await expectBoardConsistent(team, listIds, team.cards.map((c: any) => c.id));

    // Without a version, the same contention is serialised: 200 or 409, never a broken order.
    const unversioned = await Promise.all(
      team.cards.flatMap((card: any, i: number) =>
        [0, 1, 2].map((j) =>
          send('POST', `/api/cards/${card.id}/move`, j % 2 ? team.keys.member.auth : team.keys.admin.auth, { listId: listIds[(i + j) % 2], position: 0 }),
        ),
      ),
    );
    unversioned.forEach(expectMoveAnswer);
    await expectBoardConsistent(team, listIds, team.cards.map((c: any) => c.id));
  });
});

describe('parallel list moves', () => {
  it('dozens of simultaneous list moves keep list positions 0..n-1', async () => {
    const team = await makeTeam(t);
    const lists = [team.list];
    for (let i = 0; i < 5; i++) lists.push(await makeList(team.as.admin, team.board.id, `L${i}`));
    const rnd = seededRandom(99);
    const answers = await Promise.all(
      Array.from({ length: 36 }, (_, i) => {
        const list = lists[Math.floor(rnd() * lists.length)]!;
        const position = Math.floor(rnd() * lists.length);
        return send('POST', `/api/lists/${list.id}/move`, i % 2 ? team.keys.member.auth : team.keys.admin.auth, { position });
      }),
    );
    for (const a of answers) {
      expect([200, 409], `${a.status} ${JSON.stringify(a.body)}`).toContain(a.status);
      if (a.status === 200) expect(a.body).toMatchObject({ boardId: team.board.id, archived: false });
    }
    const res = await send('GET', `/api/boards/${team.board.id}/lists`, team.keys.admin.auth);
    expect(res.status).toBe(200);
    const active = res.body.lists.filter((l: any) => !l.archived);
    expectCompactPositions(active);
    expect(active.map((l: any) => l.id).sort()).toEqual(lists.map((l: any) => l.id).sort());
    const board = await fetchBoard(team.as.admin, team.board.id);
    expect(board.lists.map((l: any) => l.id)).toEqual(active.map((l: any) => l.id));
  });

  it('simultaneous list creations at the front and the end all land, positions 0..n-1', async () => {
    const team = await makeTeam(t);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        send('POST', `/api/boards/${team.board.id}/lists`, team.keys.member.auth, i % 2 ? { name: `front ${i}`, position: 0 } : { name: `end ${i}` }),
      ),
    );
    for (const a of answers) expect([201, 409], `${a.status} ${JSON.stringify(a.body)}`).toContain(a.status);
    const created = answers.filter((a) => a.status === 201).map((a) => a.body.id);
    const board = await fetchBoard(team.as.admin, team.board.id);
    expectCompactPositions(board.lists);
    expect(board.lists.map((l: any) => l.id).sort()).toEqual([team.list.id, ...created].sort());
  });
});
