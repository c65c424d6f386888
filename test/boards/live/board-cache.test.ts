import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL } from '../../../src/boards/activity/event-bus.js';
import { BOARD_CACHE_MAX_AGE_MS, BoardCache } from '../../../src/boards/boards/board-cache.js';
import type { BoardSnapshot } from '../../../src/boards/boards/board-snapshot.js';
import { getBoardJson } from '../../../src/boards/boards/get-board.js';
import type { Actor } from '../../../src/accounts/credentials/auth.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, useTestApp } from '../../helper.js';
import { countQueries } from '../../query-count.js';

const t = useTestApp();
beforeAll(async () => {
  // On PostgreSQL nothing is kept in memory until the bus listens to the other processes.
  await vi.waitFor(() => expect(t.app.events.hearsAll).toBe(true), { timeout: 10_000 });
});

const get = (boardId: number, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/boards/${boardId}`, headers });
const actorOf = (user: { id: number; name: string; email: string }): Actor => ({
  userId: user.id, name: user.name, email: user.email, siteAdmin: false, via: 'key', keyId: null, sessionId: null, permission: 'write', boardIds: null,
});

/** A board with an admin, a member and an observer, a list and a card; keys for each. */
async function team() {
  const admin = await makeUser(t.db);
  const member = await makeUser(t.db);
  const observer = await makeUser(t.db);
  // A name that holds what the role field looks like: the role is spliced at the top-level field only.
  const board = await makeBoard(t.db, admin.id, [{ userId: member.id, role: 'member' }, { userId: observer.id, role: 'observer' }], 'Team ,"role":"admin" \\",');
  const keys = { admin: await makeKey(t.db, admin.id), member: await makeKey(t.db, member.id), observer: await makeKey(t.db, observer.id) };
  const list = await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: keys.admin.auth, payload: { name: 'To do "now"' } });
  await t.app.inject({ method: 'POST', url: `/api/lists/${list.json().id}/cards`, headers: keys.admin.auth, payload: { title: 'ünïcode ,"role":"admin"' } });
  return { admin, member, observer, board, keys };
}

describe('GET /boards/{id} from the per-process cache', () => {
  it('serves a repeated fetch and a 304 from memory, with no query', async () => {
    const { board, keys } = await team();
    const first = await get(board.id, keys.admin.auth);
    expect(first.statusCode).toBe(200);
    await get(board.id, keys.admin.auth); // the key's credential is cached too by now
    // The notifier reads the changes team() made in a transaction of its own, in the background: on a
    // busy machine its statements land in the window counted below, though they are not the fetch's.
    await t.app.notifications.notifier.stop();
    const queries = await countQueries(t.db);
    try {
      const again = await get(board.id, keys.admin.auth);
      const notModified = await get(board.id, { ...keys.admin.auth, 'if-none-match': first.headers.etag as string });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(notModified.statusCode).toBe(304);
      expect(queries.count).toBe(0);
    } finally {
      queries.stop();
      t.app.notifications.notifier.start();
    }
  });

  it('sends each member, from memory, exactly the bytes and ETag the uncached fetch sends them (admin, member, observer)', async () => {
    const { admin, member, observer, board, keys } = await team();
    // Filled by the observer: the others' roles are spliced in from the cached member list.
    expect((await get(board.id, keys.observer.auth)).statusCode).toBe(200);
    for (const [user, key, role] of [[admin, keys.admin, 'admin'], [member, keys.member, 'member'], [observer, keys.observer, 'observer']] as const) {
      const cached = await get(board.id, key.auth);
      const uncached = await getBoardJson({ db: t.db.prisma, actor: actorOf(user), boardId: board.id });
      expect(cached.body).toBe(uncached.json);
      expect(cached.headers.etag).toBe(uncached.etag);
      expect(cached.json().role).toBe(role);
    }
    expect(t.app.boardCache.size.boards).toBeGreaterThan(0);
  });

  it("never shows a cached board to a non-member, nor through a key limited to other boards", async () => {
    const { admin, board, keys } = await team();
    const other = await makeBoard(t.db, admin.id);
    expect((await get(board.id, keys.admin.auth)).statusCode).toBe(200);
    const stranger = await makeKey(t.db, (await makeUser(t.db)).id);
    expect((await get(board.id, stranger.auth)).statusCode).toBe(404);
    const limited = await makeKey(t.db, admin.id, { boardIds: [other.id] });
    expect((await get(board.id, limited.auth)).statusCode).toBe(404);
    const chosen = await makeKey(t.db, admin.id, { boardIds: [board.id] });
    expect((await get(board.id, chosen.auth)).statusCode).toBe(200);
  });

  it('drops a board when it changes: new content, and the old ETag gets 200', async () => {
    const { member, board, keys } = await team();
    const before = await get(board.id, keys.admin.auth);
    await get(board.id, keys.observer.auth);
    await t.app.inject({ method: 'POST', url: `/api/boards/${board.id}/lists`, headers: keys.member.auth, payload: { name: 'Added' } });
    for (const key of [keys.admin, keys.observer]) {
      const after = await get(board.id, { ...key.auth, 'if-none-match': before.headers.etag as string });
      expect(after.statusCode).toBe(200);
      expect(after.json().lists.map((l: { name: string }) => l.name)).toContain('Added');
    }
    // A member removed: their next fetch is 404, not the cached board.
    await get(board.id, keys.member.auth);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/boards/${board.id}/members/${member.id}`, headers: keys.admin.auth });
    expect(removed.statusCode).toBe(204);
    expect((await get(board.id, keys.member.auth)).statusCode).toBe(404);
  });

  it('drops both boards when a card moves from one to the other', async () => {
    const { admin, board, keys } = await team();
    const target = await makeBoard(t.db, admin.id);
    const list = await t.app.inject({ method: 'POST', url: `/api/boards/${target.id}/lists`, headers: keys.admin.auth, payload: { name: 'There' } });
    const cardIds = (id: number) => get(id, keys.admin.auth).then((r) => r.json().lists.flatMap((l: { cards: { id: number }[] }) => l.cards.map((c) => c.id)));
    const [card] = await cardIds(board.id);
    expect(await cardIds(target.id)).toEqual([]);
    const moved = await t.app.inject({ method: 'POST', url: `/api/cards/${card}/move`, headers: keys.admin.auth, payload: { listId: list.json().id } });
    expect(moved.statusCode).toBe(200);
    expect(await cardIds(board.id)).toEqual([]);
    expect(await cardIds(target.id)).toEqual([card]);
  });

  it("drops a member's boards when they rename themselves or are deleted", async () => {
    const { member, board, keys } = await team();
    await get(board.id, keys.admin.auth);
    const session = await loginCookie(t.app, member.email, member.password);
    const renamed = await t.app.inject({ method: 'PATCH', url: '/account', headers: session, payload: { name: 'Renamed Member' } });
    expect(renamed.statusCode).toBe(200);
    const names = (await get(board.id, keys.admin.auth)).json().members.map((m: { name: string }) => m.name);
    expect(names).toContain('Renamed Member');

    const siteAdmin = await makeUser(t.db, { siteAdmin: true });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/admin/users/${member.id}`, headers: await loginCookie(t.app, siteAdmin.email, siteAdmin.password) });
    expect(deleted.statusCode).toBe(204);
    const emails = (await get(board.id, keys.admin.auth)).json().members.map((m: { email: string }) => m.email);
    expect(emails).toContain(`deleted-${member.id}@deleted.invalid`);
  });

  it("announces a user's change on the event bus's channel from the database itself (the trigger in user-changed.sql)", () => {
    // The trigger cannot import CHANNEL: the two names are held equal here.
    const sql = readFileSync(new URL('../../../src/boards/sql/user-changed.sql', import.meta.url), 'utf8');
    expect(sql).toContain(`pg_notify('${CHANNEL}', `);
  });

  it('queries every time with BOARD_CACHE_MB=0', async () => {
    const off = await buildTestApp({ BOARD_CACHE_MB: '0' });
    try {
      const user = await makeUser(off.db);
      const board = await makeBoard(off.db, user.id);
      const { auth } = await makeKey(off.db, user.id);
      const first = await off.app.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: auth });
      await off.db.prisma.board.update({ where: { id: board.id }, data: { name: 'Changed behind its back' } });
      const queries = await countQueries(off.db);
      try {
        const second = await off.app.inject({ method: 'GET', url: `/api/boards/${board.id}`, headers: { ...auth, 'if-none-match': first.headers.etag as string } });
        expect(second.statusCode).toBe(200);
        expect(second.json().name).toBe('Changed behind its back');
        expect(queries.count).toBeGreaterThan(0);
      } finally {
        queries.stop();
      }
      expect(off.app.boardCache.size.boards).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe('BoardCache', () => {
  /** A snapshot as readBoardSnapshot makes one for the first of `roles` (its role at the top), with the members. */
  const snapshot = (id: number, filler = '', roles: [number, string][] = [[1, 'admin']]): BoardSnapshot => ({
    json: JSON.stringify({ id, name: filler, archived: false, role: roles[0]![1], members: roles.map(([userId, role]) => ({ userId, role })) }),
    roles: new Map(roles),
  });
  const deferred = <T>() => {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('does not store what a fetch read when its board changed while it ran', async () => {
    const cache = new BoardCache(null, 1_000_000);
    const read = deferred<BoardSnapshot>();
    const pending = cache.get(1, 1, () => read.promise);
    cache.forget({ boardId: 1 }); // the change's event arrives while the fetch runs
    read.resolve(snapshot(1, 'old'));
    expect(JSON.parse((await pending)!.json).name).toBe('old'); // the caller gets what was read…
    let loads = 0;
    const next = await cache.get(1, 1, async () => (loads++, snapshot(1, 'new')));
    expect(loads).toBe(1); // …but nobody after them
    expect(JSON.parse(next!.json).name).toBe('new');

    // The same for a user's change (their name is on boards the fetch cannot know beforehand).
    const late = deferred<BoardSnapshot>();
    const racing = cache.get(2, 1, () => late.promise);
    cache.forget({ userId: 1 });
    late.resolve(snapshot(2, 'old'));
    await racing;
    expect(cache.size.boards).toBe(0);
  });

  it('shares one read among the fetches of a board that miss together, but not with those after a change', async () => {
    const cache = new BoardCache(null, 1_000_000);
    const roles: [number, string][] = [[1, 'admin'], [2, 'observer']];
    const reads: ReturnType<typeof deferred<BoardSnapshot>>[] = [];
    const load = () => {
      reads.push(deferred<BoardSnapshot>());
      return reads.at(-1)!.promise;
    };
    const admin = cache.get(1, 1, load);
    const observer = cache.get(1, 2, load);
    const stranger = cache.get(1, 3, load);
    expect(reads).toHaveLength(1);
    cache.forget({ boardId: 1 });
    const afterChange = cache.get(1, 2, load); // must see the change: a read of its own
    expect(reads).toHaveLength(2);
    reads[0]!.resolve(snapshot(1, 'old', roles));
    reads[1]!.resolve(snapshot(1, 'new', [[2, 'observer'], [1, 'admin']])); // read for the observer
    expect(JSON.parse((await admin)!.json)).toMatchObject({ name: 'old', role: 'admin' });
    expect(JSON.parse((await observer)!.json)).toMatchObject({ name: 'old', role: 'observer' });
    expect(await stranger).toBeNull();
    expect(JSON.parse((await afterChange)!.json)).toMatchObject({ name: 'new', role: 'observer' });
    // Only the read that began after the change was kept.
    expect(JSON.parse((await cache.get(1, 1, load))!.json)).toMatchObject({ name: 'new', role: 'admin' });
    expect(reads).toHaveLength(2);
  });

  it('keeps the most recently used boards within its size, by bytes', async () => {
    const filler = 'x'.repeat(1000);
    const cache = new BoardCache(null, 2500);
    for (const id of [1, 2]) await cache.get(id, 1, async () => snapshot(id, filler));
    await cache.get(1, 1, async () => snapshot(1, filler)); // 1 is now the most recent
    await cache.get(3, 1, async () => snapshot(3, filler)); // 2 goes
    let loads = 0;
    const load = (id: number) => async () => (loads++, snapshot(id, filler));
    await cache.get(1, 1, load(1));
    await cache.get(3, 1, load(3));
    expect(loads).toBe(0);
    await cache.get(2, 1, load(2));
    expect(loads).toBe(1);
    expect(cache.size.bytes).toBeLessThanOrEqual(2500);
    // A board bigger than the whole cache is served, never stored.
    const small = new BoardCache(null, 100);
    expect(await small.get(9, 1, async () => snapshot(9, filler))).not.toBeNull();
    expect(small.size.boards).toBe(0);
  });

  it('serves an entry for a minute at most (the backstop for changes no event announces)', async () => {
    let now = 0;
    const cache = new BoardCache(null, 1_000_000, () => now);
    let loads = 0;
    const load = async () => (loads++, snapshot(1));
    await cache.get(1, 1, load);
    now = BOARD_CACHE_MAX_AGE_MS;
    await cache.get(1, 1, load);
    expect(loads).toBe(1);
    now = BOARD_CACHE_MAX_AGE_MS + 1;
    await cache.get(1, 1, load);
    expect(loads).toBe(2);
  });
});
