import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../src/cli/run-command.js';
import { loginCookie, makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, useTestApp } from '../../helper.js';
import { SseClient } from '../../sse-client.js';

/** Live board events over a real listening server and a streaming client. */
const t = useTestApp({ RATE_LIMIT_MAX: '1000000' }, { streamIntervals: { ping: 200, accessCheck: 150 } });
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

async function team() {
  const admin = await makeUser(t.db);
  const member = await makeUser(t.db);
  const board = await makeBoard(t.db, admin.id, [{ userId: member.id, role: 'member' }]);
  const adminKey = await makeKey(t.db, admin.id);
  const memberKey = await makeKey(t.db, member.id);
  const call = async (auth: Record<string, string>, method: string, url: string, body?: object) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  return { admin, member, board, adminKey, memberKey, call };
}

const parse = (e: { data: string }) => JSON.parse(e.data);

describe('GET /api/boards/{id}/events', () => {
  it('streams every change, in order, with id, event type and the activity as data', async () => {
    const { board, adminKey, memberKey, member, call } = await team();
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);

    const list = (await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'Doing' })).json;
    const card = (await call(memberKey.auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'Stream me' })).json;
    const other = (await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'Done' })).json;
    await call(memberKey.auth, 'POST', `/api/cards/${card.id}/move`, { listId: other.id });

    const events = await stream.waitFor(4);
    expect(events.map((e) => e.event)).toEqual(['list.created', 'card.created', 'list.created', 'card.moved']);
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const moved = parse(events[3]!);
    expect(moved).toMatchObject({
      id: ids[3],
      boardId: board.id,
      type: 'card.moved',
      actor: { userId: member.id, keyId: memberKey.key.id },
      data: { cardId: card.id, from: { listId: list.id, position: 0 }, to: { listId: other.id, position: 0 } },
    });
    const activity = (await call(adminKey.auth, 'GET', `/api/boards/${board.id}/activity`)).json.activities[0];
    expect(moved).toEqual(activity);
    stream.close();
  });

  it('delivers changes made through the web session of another user, and to several viewers', async () => {
    const { board, adminKey, memberKey, member } = await team();
    const a = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    const b = await SseClient.open(`${base}/api/boards/${board.id}/events`, memberKey.auth);
    const session = await loginCookie(t.app, member.email, member.password);
    const res = await fetch(`${base}/api/boards/${board.id}/lists`, { method: 'POST', headers: { ...session, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'From the web' }) });
    expect(res.status).toBe(201);
    const [ea] = await a.waitFor(1);
    const [eb] = await b.waitFor(1);
    expect(ea).toEqual(eb);
    expect(parse(ea!).actor).toEqual({ userId: member.id, name: member.name, keyId: null, client: null });
    a.close();
    b.close();
  });

  it('replays what was missed after Last-Event-ID (header or query), then continues live, without gap or duplicate', async () => {
    const { board, adminKey, memberKey, call } = await team();
    const first = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'one' });
    const [seen] = await first.waitFor(1);
    first.close();
    await first.ended;
    for (const name of ['two', 'three', 'four']) await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name });

    const resumed = await SseClient.open(`${base}/api/boards/${board.id}/events`, { ...adminKey.auth, 'last-event-id': seen!.id! });
    await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'five' });
    const events = await resumed.waitFor(4);
    expect(events.map((e) => parse(e).data.list.name)).toEqual(['two', 'three', 'four', 'five']);
    await new Promise((r) => setTimeout(r, 200));
    expect(resumed.events).toHaveLength(4);
    resumed.close();

    const byQuery = await SseClient.open(`${base}/api/boards/${board.id}/events?lastEventId=${events[2]!.id}`, adminKey.auth);
    const [next] = await byQuery.waitFor(1);
    expect(parse(next!).data.list.name).toBe('five');
    byQuery.close();
  });

  it('streams to a web session (cookie) as well, and delivers changes made through the admin CLI', async () => {
    const { board, admin, adminKey, call } = await team();
    const session = await loginCookie(t.app, admin.email, admin.password);
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, session);
    expect(stream.status).toBe(200);
    const email = `cli-invitee-${Date.now()}@example.com`;
    expect((await call(adminKey.auth, 'POST', `/api/boards/${board.id}/members`, { email, role: 'member' })).status).toBe(202);
    // What the admin socket runs inside the server: the CLI's change goes through the server's bus.
    const created = await runCommand(['user', 'create', '--email', email, '--password', 'long enough'], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(created.exitCode).toBe(0);
    const events = await stream.waitFor(2);
    expect(events.map((e) => e.event)).toEqual(['member.invited', 'member.added']);
    expect(parse(events[1]!).data.userId).toBe(created.body.id);
    stream.close();
  });

  it('sends a ping comment periodically', async () => {
    const { board, adminKey } = await team();
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    await new Promise((r) => setTimeout(r, 500));
    expect(stream.comments).toContain('ping');
    stream.close();
  });

  it('ends when the key is revoked, and when the user loses the board', async () => {
    const { board, admin, adminKey, member, memberKey, call } = await team();
    const revoked = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    const removed = await SseClient.open(`${base}/api/boards/${board.id}/events`, memberKey.auth);
    const session = await loginCookie(t.app, admin.email, admin.password);
    expect((await t.app.inject({ method: 'DELETE', url: `/account/keys/${adminKey.key.id}`, headers: session })).statusCode).toBe(204);
    await revoked.ended;
    const admin2 = await makeKey(t.db, admin.id);
    expect((await call(admin2.auth, 'DELETE', `/api/boards/${board.id}/members/${member.id}`)).status).toBe(204);
    await removed.ended;
  });

  it('ends when the owner is blocked', async () => {
    const { board, member, memberKey } = await team();
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, memberKey.auth);
    await t.db.prisma.user.update({ where: { id: member.id }, data: { status: 'blocked' } });
    await stream.ended;
  });

  it('sends board.deleted to open streams, then ends them', async () => {
    const { board, adminKey, call } = await team();
    const stream = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    expect((await call(adminKey.auth, 'DELETE', `/api/boards/${board.id}`)).status).toBe(204);
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual(['board.deleted']);
  });

  it('lets read keys listen; answers 401 without a credential and 404 outside the key\'s reach', async () => {
    const { board, admin } = await team();
    const read = await makeKey(t.db, admin.id, { permission: 'read' });
    const ok = await SseClient.open(`${base}/api/boards/${board.id}/events`, read.auth);
    expect(ok.status).toBe(200);
    ok.close();
    const other = await makeBoard(t.db, admin.id);
    const limited = await makeKey(t.db, admin.id, { boardIds: [other.id] });
    const outside = await fetch(`${base}/api/boards/${board.id}/events`, { headers: limited.auth });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ error: 'board: not found' });
    const none = await fetch(`${base}/api/boards/${board.id}/events`);
    expect(none.status).toBe(401);
    const bad = await fetch(`${base}/api/boards/${board.id}/events`, { headers: { ...read.auth, 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
  });

  it('closes a client that stops reading instead of holding back the others', async () => {
    const { board, adminKey, memberKey, call } = await team();
    const list = (await call(memberKey.auth, 'POST', `/api/boards/${board.id}/lists`, { name: 'Big' })).json;
    const card = (await call(memberKey.auth, 'POST', `/api/lists/${list.id}/cards`, { title: 'Heavy', description: 'x'.repeat(16_000) })).json;
    const slow = await SseClient.open(`${base}/api/boards/${board.id}/events`, adminKey.auth);
    slow.pause();
    const fast = await SseClient.open(`${base}/api/boards/${board.id}/events`, memberKey.auth);
    const updates = 600; // ~10 MB of events: more than the socket buffers and the stream's limit
    // A few at a time: one after another, 600 requests took over a minute on a loaded 2-core machine.
    for (let i = 0; i < updates; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => call(memberKey.auth, 'PATCH', `/api/cards/${card.id}`, { title: `Heavy ${i + j}` })));
    }
    await fast.waitFor(updates, 90_000);
    // The paused client cannot notice (it reads nothing); the server's side shows it was cut off.
    const deadline = Date.now() + 10_000;
    while (t.app.streams.size > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(t.app.streams.size).toBe(1);
    expect(t.logs.lines.some((l) => l.msg === 'event stream closed' && l.reason === 'client too slow' && l.boardId === board.id)).toBe(true);
    fast.close();
    slow.close();
  }, 180_000);

  it('closes open streams when the server shuts down, and keeps no stream after clients go', async () => {
    const app = await buildTestApp({}, { streamIntervals: { ping: 1000, accessCheck: 1000 } });
    const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await makeUser(app.db);
    const board = await makeBoard(app.db, user.id);
    const { auth } = await makeKey(app.db, user.id);
    const gone = await SseClient.open(`${url}/api/boards/${board.id}/events`, auth);
    gone.close();
    const open = await SseClient.open(`${url}/api/boards/${board.id}/events`, auth);
    await new Promise((r) => setTimeout(r, 100));
    expect(app.app.streams.size).toBe(1);
    await app.close();
    await open.ended;
  });
});
