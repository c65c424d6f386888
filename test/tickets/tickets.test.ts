import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { loginCookie, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask } from '../answers/answer-fixtures.js';

const t = useTestApp();

async function ticketWorkspace() {
  const w = await answerWorkspace(t);
  const out = await runCommand(['workspace', 'token', '--workspace', String(w.workspaceId)], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
  expect(out.exitCode).toBe(0);
  expect(Object.keys(out.body)).toEqual(['token']);
  const token = out.body.token as string;
  expect(token).toMatch(/^wst_[0-9A-Za-z]{46}$/);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });
  return { ...w, wst: token, call };
}

const valid = { subject: 'Cannot export invoices', description: 'The PDF button does nothing.', requester: { email: 'ana@customer.example' } };

describe('POST /v1/tickets', () => {
  it('creates a ticket (201) with SPEC §5\'s fields and defaults', async () => {
    const w = await ticketWorkspace();
    const res = await w.call('POST', '/v1/tickets', valid);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      workspaceId: w.workspaceId,
      subject: 'Cannot export invoices',
      description: 'The PDF button does nothing.',
      priority: 'normal',
      status: 'open',
      requester: { email: 'ana@customer.example' },
      conversationId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('links an answer conversation of the same workspace, and refuses another workspace\'s', async () => {
    const w = await ticketWorkspace();
    const other = await ticketWorkspace();
    const conversationId = (await ask(t, w.token, { message: 'can I talk to a human?' })).json().conversationId;
    const otherConversation = (await ask(t, other.token, { message: 'hello' })).json().conversationId;
    expect((await w.call('POST', '/v1/tickets', { ...valid, conversationId })).json().conversationId).toBe(conversationId);
    const refused = await w.call('POST', '/v1/tickets', { ...valid, conversationId: otherConversation });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^conversationId: /) });
  });

  it('validates every field, naming it', async () => {
    const w = await ticketWorkspace();
    const cases: [object, string][] = [
      [{ ...valid, subject: '' }, 'subject'],
      [{ ...valid, subject: 'x'.repeat(201) }, 'subject'],
      [{ ...valid, description: 'x'.repeat(50_001) }, 'description'],
      [{ ...valid, priority: 'asap' }, 'priority'],
      [{ ...valid, requester: { email: 'not-an-address' } }, 'requester.email'],
      [{ subject: 'x' }, 'requester'],
      [{ ...valid, extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await w.call('POST', '/v1/tickets', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toBe('invalid_request');
      expect(res.json().message).toContain(field);
    }
    expect(await t.db.prisma.ticket.count({ where: { workspaceId: w.workspaceId } })).toBe(0);
  });

  it('honours Idempotency-Key: same key and body replays, another body is 409, concurrent retries create one', async () => {
    const w = await ticketWorkspace();
    const first = await w.call('POST', '/v1/tickets', valid, { 'idempotency-key': 'order-42' });
    const again = await w.call('POST', '/v1/tickets', valid, { 'idempotency-key': 'order-42' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const conflict = await w.call('POST', '/v1/tickets', { ...valid, subject: 'Other' }, { 'idempotency-key': 'order-42' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toBe('idempotency_conflict');
    const together = await Promise.all(Array.from({ length: 6 }, () => w.call('POST', '/v1/tickets', valid, { 'idempotency-key': 'burst' })));
    expect(together.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(together.map((r) => r.json().id)).size).toBe(1);
    expect(await t.db.prisma.ticket.count({ where: { workspaceId: w.workspaceId } })).toBe(2);
    // The key is per workspace.
    const other = await ticketWorkspace();
    expect((await other.call('POST', '/v1/tickets', valid, { 'idempotency-key': 'order-42' })).json().id).not.toBe(first.json().id);
  });
});

describe('GET and PATCH /v1/tickets', () => {
  it('lists newest first with an opaque cursor, gets and changes one, only within the workspace', async () => {
    const w = await ticketWorkspace();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await w.call('POST', '/v1/tickets', { ...valid, subject: `T${i}` })).json().id);
    const first = await w.call('GET', '/v1/tickets?limit=2');
    const page1 = first.json();
    expect(page1.tickets.map((x: { id: number }) => x.id)).toEqual([ids[4], ids[3]]);
    // The next page in a Link header too (RFC 8288), as on /api.
    expect(first.headers.link).toBe(`</v1/tickets?limit=2&cursor=${page1.nextCursor}>; rel="next"`);
    expect((await w.call('GET', '/v1/tickets?limit=2&sort=asc')).json()).toEqual({ error: 'invalid_request', message: 'querystring.sort: unknown parameter' });
    const page2 = (await w.call('GET', `/v1/tickets?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.tickets.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[1]]);
    const page3 = (await w.call('GET', `/v1/tickets?limit=2&cursor=${page2.nextCursor}`)).json();
    expect(page3).toEqual({ tickets: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect((await w.call('GET', '/v1/tickets?limit=101')).statusCode).toBe(400);
    expect((await w.call('GET', '/v1/tickets?cursor=garbage')).json().error).toBe('invalid_request');

    expect((await w.call('GET', `/v1/tickets/${ids[0]}`)).json().subject).toBe('T0');
    const patched = await w.call('PATCH', `/v1/tickets/${ids[0]}`, { status: 'solved', priority: 'high' });
    expect(patched.json()).toMatchObject({ status: 'solved', priority: 'high' });
    expect((await w.call('PATCH', `/v1/tickets/${ids[0]}`, { status: 'done' })).statusCode).toBe(400);
    expect((await w.call('PATCH', `/v1/tickets/${ids[0]}`, {})).statusCode).toBe(400);

    const other = await ticketWorkspace();
    for (const id of [String(ids[0]), 'abc', '99999999999', '0']) {
      const res = await other.call('GET', `/v1/tickets/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await other.call('PATCH', `/v1/tickets/${ids[0]}`, { status: 'closed' })).statusCode).toBe(404);
    expect((await other.call('GET', '/v1/tickets')).json().tickets).toEqual([]);
  });
});

describe('the workspace token', () => {
  it('is the only credential: ans_, tsk_ and cookies are 401 invalid_token; a new token stops the old one at once', async () => {
    const w = await ticketWorkspace();
    const { token: tsk } = await makeKey(t.db, w.owner.id);
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    for (const headers of [{}, { authorization: `Bearer ${w.token}` }, { 'x-api-key': w.token }, { authorization: `Bearer ${tsk}` }, { cookie }]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/tickets', headers });
      expect(res.statusCode).toBe(401);
      expect(Object.keys(res.json()).sort()).toEqual(['error', 'message']);
      expect(res.json().error).toBe('invalid_token');
    }
    expect((await w.call('GET', '/v1/tickets')).statusCode).toBe(200);
    const fresh = await t.app.inject({ method: 'POST', url: `/agent/workspaces/${w.workspaceId}/token`, headers: { cookie } });
    expect(fresh.statusCode).toBe(201);
    expect((await w.call('GET', '/v1/tickets')).statusCode).toBe(401);
    const newToken = fresh.json().token;
    expect((await t.app.inject({ method: 'GET', url: '/v1/tickets', headers: { authorization: `Bearer ${newToken}` } })).statusCode).toBe(200);
    // The console lists tickets for members; a member may not regenerate the token.
    const member = await makeUser(t.db);
    await t.db.prisma.workspaceMember.create({ data: { workspaceId: w.workspaceId, userId: member.id, role: 'member' } });
    const { cookie: memberCookie } = await loginCookie(t.app, member.email, member.password);
    expect((await t.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/tickets`, headers: { cookie: memberCookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/agent/workspaces/${w.workspaceId}/token`, headers: { cookie: memberCookie } })).statusCode).toBe(403);
  });
});

describe('the support console changes tickets', () => {
  it('PATCH /agent/workspaces/{id}/tickets/{id}: owners and admins change status and priority (ticket.updated is recorded); members 403, other workspaces 404', async () => {
    const w = await ticketWorkspace();
    const created = (await w.call('POST', '/v1/tickets', valid)).json();
    // A paused endpoint: its deliveries wait, so the event is recorded and nothing is sent.
    await t.db.prisma.webhookEndpoint.create({ data: { workspaceId: w.workspaceId, url: 'https://hooks.example.com/t', secret: 'whsec_test', events: [], enabled: false, disabledReason: 'manual' } });
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    const url = `/agent/workspaces/${w.workspaceId}/tickets/${created.id}`;
    const patch = (payload: object, as = cookie, at = url) => t.app.inject({ method: 'PATCH', url: at, headers: { cookie: as }, payload });

    const changed = await patch({ status: 'pending', priority: 'urgent' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: created.id, status: 'pending', priority: 'urgent' });
    expect((await w.call('GET', `/v1/tickets/${created.id}`)).json()).toMatchObject({ status: 'pending', priority: 'urgent' });
    const events = await t.db.prisma.webhookEvent.findMany({ where: { workspaceId: w.workspaceId, type: 'ticket.updated' } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.body).data.previous).toEqual({ status: 'open', priority: 'normal' });

    expect((await patch({ status: 'nope' })).statusCode).toBe(400);
    expect((await patch({})).statusCode).toBe(400);

    const member = await makeUser(t.db);
    await t.db.prisma.workspaceMember.create({ data: { workspaceId: w.workspaceId, userId: member.id, role: 'member' } });
    const { cookie: memberCookie } = await loginCookie(t.app, member.email, member.password);
    expect((await patch({ status: 'solved' }, memberCookie)).statusCode).toBe(403);

    const other = await ticketWorkspace();
    const { cookie: otherCookie } = await loginCookie(t.app, other.owner.email, other.owner.password);
    expect((await patch({ status: 'solved' }, otherCookie, `/agent/workspaces/${other.workspaceId}/tickets/${created.id}`)).statusCode).toBe(404);
    expect((await w.call('GET', `/v1/tickets/${created.id}`)).json().status).toBe('pending');
  });
});
