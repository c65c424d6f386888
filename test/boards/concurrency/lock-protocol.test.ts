import { beforeAll, describe, expect, it } from 'vitest';
import { makeKey, makeUser } from '../../factories.js';
import { useTestApp } from '../../helper.js';

/**
 * Card operations racing list operations (moves across boards, archive/restore), over a listening
 * server: never a 5xx (no deadlock reaches the client), positions stay 0..n-1, and every card
 * stays on its list's board. On PostgreSQL this runs truly in parallel.
 */
const t = useTestApp({ RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'warn' });
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('the lock protocol under mixed concurrent traffic', () => {
  it('answers only 2xx, 400 or 409 and keeps every invariant', async () => {
    const user = await makeUser(t.db);
    const { auth } = await makeKey(t.db, user.id);
    const call = async (method: string, url: string, body?: object) => {
      const res = await fetch(`${base}${url}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    };
    const A = (await call('POST', '/api/boards', { name: 'A' })).json.id;
    const B = (await call('POST', '/api/boards', { name: 'B' })).json.id;
    const lists: number[] = [];
    for (const board of [A, A, A, B, B]) lists.push((await call('POST', `/api/boards/${board}/lists`, { name: 'l' })).json.id);
    const cards: number[] = [];
    for (const l of lists) for (let i = 0; i < 3; i++) cards.push((await call('POST', `/api/lists/${l}/cards`, { title: 'c' })).json.id);
    const pick = <T,>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const roaming = lists[0]!;
    const statuses = new Map<number, number>();
    const note = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const until = Date.now() + 3000;
    const loop = async (fn: () => Promise<{ status: number }>) => {
      while (Date.now() < until) note((await fn()).status);
    };
    await Promise.all([
      loop(async () => {
        const board = (await t.db.prisma.list.findUniqueOrThrow({ where: { id: roaming } })).boardId;
        return call('POST', `/api/lists/${roaming}/move`, { position: 0, boardId: board === A ? B : A });
      }),
      loop(() => call('PATCH', `/api/lists/${pick(lists.slice(1))}`, { archived: Math.random() < 0.5 })),
      loop(() => call('POST', `/api/lists/${pick(lists)}/move`, { position: 0 })),
      loop(() => call('POST', `/api/lists/${roaming}/cards`, { title: 'new' })),
      ...Array.from({ length: 4 }, () => loop(() => call('POST', `/api/cards/${pick(cards)}/move`, { listId: pick(lists) }))),
    ]);
    expect([...statuses.keys()].filter((s) => s >= 500 || (s >= 401 && s !== 404 && s !== 409 && s !== 400))).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);

    const mismatched = await t.db.prisma.$queryRaw<unknown[]>`
      SELECT c.id FROM "Card" c JOIN "List" l ON l.id = c."listId" WHERE c."boardId" <> l."boardId"`;
    expect(mismatched).toEqual([]);
    for (const list of await t.db.prisma.list.findMany({ where: { boardId: { in: [A, B] } } })) {
      const positions = (await t.db.prisma.card.findMany({ where: { listId: list.id, archived: false }, orderBy: { position: 'asc' } })).map((c) => c.position);
      expect(positions, `list ${list.id}`).toEqual(positions.map((_, i) => i));
    }
    for (const board of [A, B]) {
      const positions = (await t.db.prisma.list.findMany({ where: { boardId: board, archived: false }, orderBy: { position: 'asc' } })).map((l) => l.position);
      expect(positions, `board ${board}`).toEqual(positions.map((_, i) => i));
    }
  }, 30_000);
});
