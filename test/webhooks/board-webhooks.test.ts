import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { runCommand } from '../../src/cli/run-command.js';
import type { BoardRole } from '../../src/boards/policy.js';
import { authorizeWebhook, type WebhookAction } from '../../src/boards/webhooks/policy.js';
import { changeBoard } from '../../src/boards/activity/change-board.js';
import { WITHHELD_ERROR } from '../../src/webhooks/claim-deliveries.js';
import { boardActivities, BOARD_TEST_ENV, client, expectError, expectNoContent, expectStatus, makeList, makeTeam } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import { makeWorkspace } from '../workspace-factories.js';
import { eventually } from './webhook-fixtures.js';

// Receivers listen on loopback, so private destinations are allowed here; the SSRF guard's own
// test below builds an app of its own without that setting.
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});
// Closed before the receivers (after-hooks run in reverse order).
const t = useTestApp({ ...BOARD_TEST_ENV, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '1h' });

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

type Api = ReturnType<typeof client>;

/** Subscribes `url` to the board as `api`'s user; the webhook and its secret. */
async function subscribe(api: Api, boardId: number, url: string, extra: object = {}) {
  const res = await api.post(`/api/boards/${boardId}/webhooks`, { url, ...extra });
  expectStatus(res, 201);
  return res.json() as { endpoint: { id: number; boardId: number; userId: number; events: string[] | null; enabled: boolean }; secret: string };
}

/** Moves a card to the list, and the card.moved activity as GET /boards/{id}/activity has it. */
async function moveCard(api: Api, boardId: number, cardId: number, listId: number) {
  expectStatus(await api.post(`/api/cards/${cardId}/move`, { listId, position: 0 }), 200);
  const [activity] = await boardActivities(api, boardId, 1);
  expect(activity.type).toBe('card.moved');
  return activity;
}

const deliveriesOf = (endpointId: number) => t.db.prisma.webhookDelivery.count({ where: { endpointId } });

describe('board webhooks', () => {
  it('a key owner subscribes; a card move arrives signed (Standard Webhooks), its data the activity exactly as the log has it', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const r = await receiver();
    const created = await team.as.member.post(`/api/boards/${team.board.id}/webhooks`, { url: r.url, description: 'CI' });
    expectStatus(created, 201);
    const { endpoint, secret } = created.json();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toEqual({
      id: expect.any(Number), boardId: team.board.id, userId: team.member.id, url: r.url, description: 'CI', events: null, enabled: true,
      disabledReason: null, disabledAt: null, failingSince: null, secretRotationEndsAt: null, createdAt: expect.any(String), updatedAt: expect.any(String),
    });

    const activity = await moveCard(team.as.member, team.board.id, team.cards[0]!.id, done.id);
    const [request] = await r.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.headers['webhook-id']).toMatch(/^msg_/);
    const payload = r.verify(request!, secret);
    expect(payload.type).toBe('card.moved');
    expect(payload.timestamp).toBe(activity.createdAt);
    // The same keys in the same order as the activity log sends them.
    expect(JSON.stringify(payload.data)).toBe(JSON.stringify(activity));
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request!.body, request!.headers as Record<string, string>)).toThrow();

    // The delivery log shows it, succeeded, with its attempt.
    const log = await team.as.member.get(`/api/webhooks/${endpoint.id}/deliveries`);
    expectStatus(log, 200);
    await eventually(async () => {
      const [d] = (await team.as.member.get(`/api/webhooks/${endpoint.id}/deliveries`)).json().deliveries;
      expect(d).toMatchObject({ endpointId: endpoint.id, eventId: request!.headers['webhook-id'], eventType: 'card.moved', status: 'succeeded', nextAttemptAt: null });
      expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 200, succeeded: true, error: null })]);
      expect(d.payload).toEqual(payload);
    });
  });

  it('delivers only the subscribed activity types; unknown types are refused', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const r = await receiver();
    const { endpoint, secret } = await subscribe(team.as.admin, team.board.id, r.url, { events: ['card.created', 'card.created'] });
    expect(endpoint.events).toEqual(['card.created']);
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, done.id);
    expectStatus(await team.as.admin.post(`/api/lists/${done.id}/cards`, { title: 'New' }), 201);
    const [only] = await r.waitFor(1);
    expect(r.verify(only!, secret).type).toBe('card.created');
    expect(await deliveriesOf(endpoint.id)).toBe(1);

    expectError(await team.as.admin.post(`/api/boards/${team.board.id}/webhooks`, { url: r.url, events: ['card.teleported'] }), 400, /^events\.0: must be an activity type/);
    expectError(await team.as.admin.patch(`/api/webhooks/${endpoint.id}`, { events: ['Card.Moved'] }), 400, /^events\.0: /);
    // [] and null mean every type.
    const all = await team.as.admin.patch(`/api/webhooks/${endpoint.id}`, { events: [] });
    expectStatus(all, 200);
    expect(all.json().events).toBeNull();
  });

  it('needs write permission to subscribe (a read key may list); outsiders get 404; another member\'s webhook is theirs', async () => {
    const team = await makeTeam(t);
    const readKey = await makeKey(t.db, team.member.id, { permission: 'read' });
    const reader = client(t.app, readKey.auth);
    expectError(await reader.post(`/api/boards/${team.board.id}/webhooks`, { url: 'https://8.8.8.8/hooks' }), 403, /read-only/);
    expectError(await team.as.stranger.post(`/api/boards/${team.board.id}/webhooks`, { url: 'https://8.8.8.8/hooks' }), 404);
    expectError(await team.as.stranger.get(`/api/boards/${team.board.id}/webhooks`), 404);
    // A key limited to other boards does not reach this one.
    const other = await makeBoard(t.db, team.member.id);
    const elsewhere = client(t.app, (await makeKey(t.db, team.member.id, { boardIds: [other.id] })).auth);
    expectError(await elsewhere.post(`/api/boards/${team.board.id}/webhooks`, { url: 'https://8.8.8.8/hooks' }), 404);

    // Observers may subscribe: a webhook reveals nothing the event stream does not.
    const observers = await subscribe(team.as.observer, team.board.id, 'https://8.8.8.8/observer');
    const members = await subscribe(team.as.member, team.board.id, 'https://8.8.8.8/member');
    const own = await reader.get(`/api/boards/${team.board.id}/webhooks`);
    expectStatus(own, 200);
    expect(own.json().endpoints.map((e: { id: number }) => e.id)).toEqual([members.endpoint.id]);
    expect(own.body).not.toContain(members.secret.slice(6));

    // To another member, someone else's webhook does not exist.
    for (const res of [
      await team.as.member.get(`/api/webhooks/${observers.endpoint.id}`),
      await team.as.member.patch(`/api/webhooks/${observers.endpoint.id}`, { description: 'mine now' }),
      await team.as.member.del(`/api/webhooks/${observers.endpoint.id}`),
      await team.as.member.get(`/api/webhooks/${observers.endpoint.id}/deliveries`),
      await team.as.stranger.get(`/api/webhooks/${observers.endpoint.id}`),
    ]) expectError(res, 404, /^webhook: not found/);

    // A board admin sees every webhook of the board and may delete any, but not change another's.
    const all = await team.as.admin.get(`/api/boards/${team.board.id}/webhooks`);
    expect(all.json().endpoints.map((e: { id: number }) => e.id)).toEqual([members.endpoint.id, observers.endpoint.id]);
    expectStatus(await team.as.admin.get(`/api/webhooks/${observers.endpoint.id}`), 200);
    expectError(await team.as.admin.patch(`/api/webhooks/${observers.endpoint.id}`, { enabled: false }), 403, /only its creator/);
    expectError(await team.as.admin.post(`/api/webhooks/${observers.endpoint.id}/rotate-secret`), 403);
    expectError(await team.as.admin.get(`/api/webhooks/${observers.endpoint.id}/deliveries`), 403);
    expectNoContent(await team.as.admin.del(`/api/webhooks/${observers.endpoint.id}`));
    expectError(await team.as.observer.get(`/api/webhooks/${observers.endpoint.id}`), 404);
  });

  it('pages the list newest first with a Link header', async () => {
    const team = await makeTeam(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await subscribe(team.as.member, team.board.id, `https://8.8.8.8/h${i}`)).endpoint.id);
    const first = await team.as.member.get(`/api/boards/${team.board.id}/webhooks?limit=2`);
    expect(first.json().endpoints.map((e: { id: number }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.json().nextBefore).toBe(ids[3]);
    expect(first.headers.link).toBe(`</api/boards/${team.board.id}/webhooks?limit=2&before=${ids[3]}>; rel="next"`);
    const seen = [...first.json().endpoints];
    let next = /<([^>]+)>/.exec(String(first.headers.link))![1]!;
    for (;;) {
      const page = await team.as.member.get(next);
      seen.push(...page.json().endpoints);
      if (!page.headers.link) break;
      next = /<([^>]+)>/.exec(String(page.headers.link))![1]!;
    }
    expect(seen.map((e) => e.id)).toEqual([...ids].reverse());
    expectError(await team.as.member.get(`/api/boards/${team.board.id}/webhooks?limit=0`), 400, /limit/);
  });

  it('stops delivering to a creator who loses the board (removed, then blocked); the others go on', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const theirs = await receiver();
    const control = await receiver();
    const member = await subscribe(team.as.member, team.board.id, theirs.url);
    await subscribe(team.as.admin, team.board.id, control.url);
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, done.id);
    await theirs.waitFor(1);
    await control.waitFor(1);

    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`));
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, team.list.id);
    // member.removed and the move reached the admin's receiver; nothing more was recorded for the removed member's.
    await control.waitFor(3);
    expect(r2types(control).sort()).toEqual(['card.moved', 'card.moved', 'member.removed']);
    expect(await deliveriesOf(member.endpoint.id)).toBe(1);
    expect(theirs.received).toHaveLength(1);
    // Their webhook is out of their reach now; the admin still sees it (and may delete it).
    expectError(await team.as.member.get(`/api/webhooks/${member.endpoint.id}`), 404);
    expectStatus(await team.as.admin.get(`/api/webhooks/${member.endpoint.id}`), 200);

    // Back on the board, it receives again; blocked, it does not.
    expectStatus(await team.as.admin.post(`/api/boards/${team.board.id}/members`, { email: team.member.email, role: 'member' }), 201);
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, done.id);
    await theirs.waitFor(3); // member.added and the move
    const blocked = await runCommand(['user', 'block', '--email', team.member.email], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(blocked.exitCode).toBe(0);
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, team.list.id);
    await control.waitFor(6);
    expect(await deliveriesOf(member.endpoint.id)).toBe(3);
  });

  it('withholds a retry still due when its creator has lost the board since (no request is made)', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const r = await receiver(() => ({ status: 503 }));
    const { endpoint } = await subscribe(team.as.member, team.board.id, r.url, { events: ['card.moved'] });
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, done.id);
    await r.waitFor(1);
    const delivery = await eventually(async () => {
      const d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id }, include: { attempts: true } });
      expect(d.attempts).toHaveLength(1);
      expect(d.status).toBe('pending');
      return d;
    });
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}/members/${team.member.id}`));
    // The retry falls due now rather than in an hour.
    await t.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    const withheld = await eventually(async () => {
      const d = await t.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, include: { attempts: { orderBy: { id: 'asc' } } } });
      expect(d.status).toBe('failed');
      return d;
    });
    expect(withheld.attempts.map((a) => [a.statusCode, a.error, a.succeeded])).toEqual([[503, null, false], [null, WITHHELD_ERROR, false]]);
    expect(r.received).toHaveLength(1);
  });

  it('deletes a webhook with its log; rotation signs with both secrets for a while', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const r = await receiver();
    const { endpoint, secret } = await subscribe(team.as.member, team.board.id, r.url);

    const rotated = await team.as.member.post(`/api/webhooks/${endpoint.id}/rotate-secret`);
    expectStatus(rotated, 201);
    const next = rotated.json();
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(secret);
    expect(next.endpoint.secretRotationEndsAt).toEqual(expect.any(String));
    expect((await team.as.member.get(`/api/webhooks/${endpoint.id}`)).body).not.toContain(next.secret.slice(6));
    await moveCard(team.as.member, team.board.id, team.cards[0]!.id, done.id);
    const [request] = await r.waitFor(1);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(r.verify(request!, secret).type).toBe('card.moved');
    expect(r.verify(request!, next.secret).type).toBe('card.moved');

    expectNoContent(await team.as.member.del(`/api/webhooks/${endpoint.id}`));
    expectError(await team.as.member.get(`/api/webhooks/${endpoint.id}`), 404);
    expect(await deliveriesOf(endpoint.id)).toBe(0);
    await moveCard(team.as.member, team.board.id, team.cards[0]!.id, team.list.id);
    expect(await t.db.prisma.webhookEvent.count({ where: { boardId: team.board.id, type: 'card.moved' } })).toBe(1);
  });

  it('keeps a failed attempt in the log and redelivers it with the same webhook-id; 410 disables the webhook', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    let status = 500;
    const r = await receiver(() => ({ status, body: `answer ${status}` }));
    const { endpoint } = await subscribe(team.as.member, team.board.id, r.url, { events: ['card.moved'] });
    await moveCard(team.as.member, team.board.id, team.cards[0]!.id, done.id);
    await r.waitFor(1);
    const failed = await eventually(async () => {
      const [d] = (await team.as.member.get(`/api/webhooks/${endpoint.id}/deliveries?status=pending`)).json().deliveries;
      expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 500, succeeded: false, responseExcerpt: 'answer 500' })]);
      return d;
    });
    expect(failed.nextAttemptAt).toEqual(expect.any(String)); // the next retry, an hour away

    status = 200;
    const again = await team.as.member.post(`/api/webhooks/${endpoint.id}/deliveries/${failed.id}/redeliver`);
    expectStatus(again, 202);
    await r.waitFor(2);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    await eventually(async () => {
      const [d] = (await team.as.member.get(`/api/webhooks/${endpoint.id}/deliveries`)).json().deliveries;
      expect(d.status).toBe('succeeded');
      expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    });
    expectError(await team.as.member.post(`/api/webhooks/${endpoint.id}/deliveries/999999/redeliver`), 404);
    const since = await team.as.member.post(`/api/webhooks/${endpoint.id}/redeliver`, { since: '2000-01-01T00:00:00Z' });
    expectStatus(since, 202);
    expect(since.json()).toEqual({ redelivered: 0 });

    status = 410;
    await moveCard(team.as.member, team.board.id, team.cards[0]!.id, team.list.id);
    await r.waitFor(3);
    await eventually(async () => {
      expect((await team.as.member.get(`/api/webhooks/${endpoint.id}`)).json()).toMatchObject({ enabled: false, disabledReason: 'gone' });
    });
    expectError(await team.as.member.post(`/api/webhooks/${endpoint.id}/deliveries/${failed.id}/redeliver`), 409, /disabled/);
    const resumed = await team.as.member.patch(`/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(resumed.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('records nothing for a change that rolls back', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const done = await makeList(team.as.admin, team.board.id, 'Done');
    const r = await receiver();
    const { endpoint, secret } = await subscribe(team.as.admin, team.board.id, r.url);
    const before = await deliveriesOf(endpoint.id);
    const actor = { userId: team.admin.id, name: team.admin.name, keyId: null, via: 'session', sessionId: null, permission: 'write', boardIds: null } as never;
    await expect(
      changeBoard({ db: t.db.prisma, events: t.app.events, effects: t.app.effects, actor }, async (tx, record) => {
        await record({ boardId: team.board.id, type: 'board.deleted', data: { boardId: team.board.id } } as never);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await deliveriesOf(endpoint.id)).toBe(before);
    expect(await t.db.prisma.webhookEvent.count({ where: { boardId: team.board.id } })).toBe(0);
    // The next real change is the first thing the receiver gets.
    await moveCard(team.as.admin, team.board.id, team.cards[0]!.id, done.id);
    const [first] = await r.waitFor(1);
    expect(r.verify(first!, secret).type).toBe('card.moved');
  });

  it('keeps board webhooks out of the workspace commands and the console', async () => {
    const team = await makeTeam(t);
    const owner = await makeUser(t.db);
    const workspace = await makeWorkspace(t.db, { ownerId: owner.id });
    const { endpoint } = await subscribe(team.as.admin, team.board.id, 'https://8.8.8.8/board');
    const listed = await runCommand(['webhook', 'list', '--workspace', String(workspace.id)], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(listed.body).toEqual({ endpoints: [] });
    const rotate = await runCommand(['webhook', 'rotate-secret', '--workspace', String(workspace.id), '--id', String(endpoint.id)], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(rotate.exitCode).toBe(1);
    // And workspace endpoints are not board webhooks.
    const created = await runCommand(['webhook', 'create', '--workspace', String(workspace.id), '--url', 'https://8.8.8.8/ws'], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expectError(await team.as.admin.get(`/api/webhooks/${(created.body as { id: number }).id}`), 404);
    // The database refuses an endpoint with two owners or none.
    await expect(t.db.prisma.webhookEndpoint.create({ data: { workspaceId: workspace.id, boardId: team.board.id, userId: team.admin.id, url: 'https://8.8.8.8/', secret: 'x', events: [] } })).rejects.toThrow();
    await expect(t.db.prisma.webhookEndpoint.create({ data: { url: 'https://8.8.8.8/', secret: 'x', events: [] } })).rejects.toThrow();
  });
});

describe('the board webhook policy (src/boards/policy.ts)', () => {
  const actor = { userId: 1 } as never;
  const outcome = (action: WebhookAction, role: BoardRole, ownerId: number) => {
    try {
      authorizeWebhook(actor, action, role, ownerId);
      return 'allowed';
    } catch (error) {
      return (error as { status: number }).status;
    }
  };
  it.each([
    // [action, role, whose, expected]
    ['read', 'observer', 'own', 'allowed'], ['manage', 'observer', 'own', 'allowed'], ['delete', 'observer', 'own', 'allowed'],
    ['read', 'member', 'own', 'allowed'], ['manage', 'admin', 'own', 'allowed'],
    ['read', 'member', 'another', 404], ['manage', 'member', 'another', 404], ['delete', 'member', 'another', 404], ['read', 'observer', 'another', 404],
    ['read', 'admin', 'another', 'allowed'], ['delete', 'admin', 'another', 'allowed'], ['manage', 'admin', 'another', 403],
  ] as const)('%s by a board %s of their %s webhook: %s', (action, role, whose, expected) => {
    expect(outcome(action, role, whose === 'own' ? 1 : 2)).toBe(expected);
  });
});

describe('board webhooks to private destinations', () => {
  const guarded = useTestApp(BOARD_TEST_ENV);

  it('refuses them at creation and change with a 400 naming url', async () => {
    const admin = await makeUser(guarded.db);
    const board = await guarded.db.prisma.board.create({ data: { name: 'Guarded', members: { create: [{ userId: admin.id, role: 'admin' }] } } });
    const api = client(guarded.app, (await makeKey(guarded.db, admin.id)).auth);
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/hooks', 'http://[::1]/', 'http://10.0.0.8/', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/']) {
      expectError(await api.post(`/api/boards/${board.id}/webhooks`, { url }), 400, /^url: .*(private or loopback address|resolves to a private network address).*WEBHOOK_ALLOW_PRIVATE=true/);
    }
    expectError(await api.post(`/api/boards/${board.id}/webhooks`, { url: 'ftp://files.example/x' }), 400, /^url: /);
    const ok = await api.post(`/api/boards/${board.id}/webhooks`, { url: 'https://8.8.8.8/hooks' });
    expectStatus(ok, 201);
    expectError(await api.patch(`/api/webhooks/${ok.json().endpoint.id}`, { url: 'http://192.168.1.1/' }), 400, /^url: /);
    expect(await guarded.db.prisma.webhookEndpoint.count({ where: { boardId: board.id } })).toBe(1);
  });
});

function r2types(r: Receiver) {
  return r.received.map((x) => (JSON.parse(x.body) as { type: string }).type);
}
