import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helper.js';
import { freePort } from '../net.js';
import { type Answer, type Receiver, type Received, startReceiver } from '../webhook-receiver.js';
import { deliveries, eventually, webhookWorkspace } from './webhook-fixtures.js';

// A poll far longer than any wait below: deliveries that arrive were sent because the commit woke the dispatcher.
const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '60000', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms', WEBHOOK_TIMEOUT_MS: '1500' });

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(answer?: (r: Received, i: number) => Answer) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

describe('webhook deliveries', () => {
  it('POSTs ticket.created, signed per Standard Webhooks, as soon as the ticket commits', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url);
    expect(w.endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const before = Date.now();
    const ticket = await w.createTicket('Printer on fire');
    // Far sooner than the 60 s poll: the commit woke the dispatcher (the margin is for a loaded CI machine).
    const [got] = await r.waitFor(1, 20_000);
    expect(got!.at - before).toBeLessThan(20_000);
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/hooks');
    expect(got!.headers['content-type']).toBe('application/json');
    const payload = r.verify(got!, w.endpoint.secret);
    expect(payload).toEqual({ type: 'ticket.created', timestamp: ticket.updatedAt, data: ticket });
    expect(payload.data.subject).toBe('Printer on fire');
    expect(got!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    // Another secret does not verify it.
    expect(() => r.verify(got!, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();

    const [delivery] = await eventually(async () => {
      const list = await deliveries(t, w.workspaceId, w.endpoint.id);
      expect(list[0]?.status).toBe('succeeded');
      return list;
    });
    expect(delivery).toMatchObject({ eventId: got!.headers['webhook-id'], eventType: 'ticket.created', nextAttemptAt: null });
    expect(delivery!.attempts).toEqual([expect.objectContaining({ statusCode: 200, error: null, succeeded: true })]);
  });

  it('sends ticket.updated with the previous values when a PATCH changes something, and nothing when it does not', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url);
    const ticket = await w.createTicket();
    await r.waitFor(1);
    const patched = await w.call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'pending', priority: 'normal' });
    expect(patched.statusCode).toBe(200);
    const [, got] = await r.waitFor(2);
    const payload = r.verify(got!, w.endpoint.secret);
    expect(payload.type).toBe('ticket.updated');
    expect(payload.data).toEqual({ ...patched.json(), previous: { status: 'open' } });
    expect((await w.call('PATCH', `/v1/tickets/${ticket.id}`, { status: 'pending' })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(2);
  });

  it('only sends the event types an endpoint subscribed to', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url, 'ticket.updated');
    const ticket = await w.createTicket();
    await w.call('PATCH', `/v1/tickets/${ticket.id}`, { priority: 'high' });
    const [got] = await r.waitFor(1);
    expect(r.verify(got!, w.endpoint.secret).type).toBe('ticket.updated');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });

  it('does not send a replayed Idempotency-Key request again', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url);
    const body = { subject: 'Once', requester: { email: 'a@b.example' } };
    const headers = { authorization: `Bearer ${w.wst}`, 'idempotency-key': 'k-1' };
    expect((await t.app.inject({ method: 'POST', url: '/v1/tickets', headers, payload: body })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/v1/tickets', headers, payload: body })).headers['idempotent-replayed']).toBe('true');
    await r.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });

  it('retries a failing receiver on the schedule with the same webhook-id, recording each attempt', async () => {
    const r = await receiver((_req, i) => (i < 2 ? { status: 500, body: `boom ${i} ${'x'.repeat(3000)}` } : { status: 204 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket();
    const got = await r.waitFor(3);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    for (const g of got) r.verify(g, w.endpoint.secret);
    // 100 ms between attempts (WEBHOOK_RETRY_SCHEDULE), not sooner.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(90);
    const [d] = await eventually(async () => {
      const list = await deliveries(t, w.workspaceId, w.endpoint.id);
      expect(list[0]?.status).toBe('succeeded');
      return list;
    });
    expect(d!.attempts.map((a) => [a.statusCode, a.succeeded])).toEqual([[500, false], [500, false], [204, true]]);
    expect(d!.attempts[0]!.responseExcerpt).toMatch(/^boom 0 x+$/);
    expect(Buffer.byteLength(d!.attempts[0]!.responseExcerpt!)).toBe(1024);
  });

  it('marks a delivery failed after the last retry of the schedule', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket();
    await r.waitFor(4);
    const [d] = await eventually(async () => {
      const list = await deliveries(t, w.workspaceId, w.endpoint.id);
      expect(list[0]?.status).toBe('failed');
      return list;
    });
    expect(d!.attempts).toHaveLength(4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(4);
  });

  it('keeps to the schedule of every failing delivery, not only the one due first', async () => {
    // The poll is a minute away: each retry must be woken by its own due time.
    const r = await receiver(() => ({ status: 500 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket('first');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await w.createTicket('second');
    await new Promise((resolve) => setTimeout(resolve, 70));
    await w.createTicket('third');
    await eventually(async () => {
      const list = await deliveries(t, w.workspaceId, w.endpoint.id);
      expect(list.map((d) => [d.status, d.attempts.length])).toEqual([['failed', 4], ['failed', 4], ['failed', 4]]);
    }, 8000);
  });

  it('counts timeouts, refused connections and redirects as failed attempts, following no redirect', async () => {
    const hanging = await receiver(() => 'hang');
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const closedPort = `http://127.0.0.1:${await freePort()}/hooks`;
    for (const [url, expected] of [
      [hanging.url, /timed out after 1500 ms/],
      [closedPort, /ECONNREFUSED/],
      [redirecting.url, null],
    ] as const) {
      const w = await webhookWorkspace(t, url);
      await w.createTicket();
      const [d] = await eventually(async () => {
        const list = await deliveries(t, w.workspaceId, w.endpoint.id);
        expect(list[0]?.attempts.length).toBeGreaterThanOrEqual(2);
        return list;
      });
      const first = d!.attempts[0]!;
      expect(first.succeeded).toBe(false);
      if (expected) expect(first).toMatchObject({ statusCode: null, error: expect.stringMatching(expected) });
      else expect(first).toMatchObject({ statusCode: 302, error: null });
    }
    expect(target.received).toHaveLength(0);
  });

  it('honours Retry-After on 429 and 503 when it asks for longer than the schedule', async () => {
    const r = await receiver((_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket();
    const got = await r.waitFor(2, 5000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('disables an endpoint that answers 410 Gone, and sends it nothing more until it is enabled again', async () => {
    const r = await receiver((_req, i) => (i === 0 ? { status: 410 } : { status: 200 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket();
    await r.waitFor(1);
    const listed = await eventually(async () => {
      const out = await w.admin('webhook', 'list', '--workspace', String(w.workspaceId));
      const [e] = out.endpoints as { enabled: boolean; disabledReason: string | null; disabledAt: string | null }[];
      expect(e).toMatchObject({ enabled: false, disabledReason: 'gone', disabledAt: expect.any(String) });
      return e;
    });
    expect(listed).toBeDefined();
    expect((await deliveries(t, w.workspaceId, w.endpoint.id))[0]).toMatchObject({ status: 'failed' });
    await w.createTicket('while disabled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
    const enabled = await w.admin('webhook', 'update', '--workspace', String(w.workspaceId), '--id', String(w.endpoint.id), '--enabled', 'true');
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await w.createTicket('after');
    const [, got] = await r.waitFor(2);
    expect(r.verify(got!, w.endpoint.secret).data.subject).toBe('after');
  });

  it('disables an endpoint whose attempts have all failed for WEBHOOK_DISABLE_AFTER', async () => {
    const t2 = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms', WEBHOOK_DISABLE_AFTER: '400ms', WEBHOOK_TIMEOUT_MS: '500' });
    try {
      const r = await receiver(() => ({ status: 500 }));
      const w = await webhookWorkspace(t2, r.url);
      await w.createTicket();
      await eventually(async () => {
        const out = await w.admin('webhook', 'list', '--workspace', String(w.workspaceId));
        expect(out.endpoints).toEqual([expect.objectContaining({ enabled: false, disabledReason: 'failing', failingSince: expect.any(String) })]);
      });
      const count = r.received.length;
      expect(count).toBeGreaterThanOrEqual(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.received).toHaveLength(count);
    } finally {
      await t2.close();
    }
  });

  it('keeps events for a paused endpoint and sends them when it is enabled again', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url);
    const id = String(w.endpoint.id);
    await w.admin('webhook', 'update', '--workspace', String(w.workspaceId), '--id', id, '--enabled', 'false');
    await w.createTicket('while paused');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(0);
    await w.admin('webhook', 'update', '--workspace', String(w.workspaceId), '--id', id, '--enabled', 'true');
    t.app.webhooks.wake();
    const [got] = await r.waitFor(1);
    expect(r.verify(got!, w.endpoint.secret).data.subject).toBe('while paused');
  });

  it('records nothing, and fails nothing, for an attempt whose endpoint was deleted while it was in flight', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const slow = await receiver(() => 'hang');
    const w = await webhookWorkspace(t, slow.url);
    const other = await w.admin('webhook', 'create', '--workspace', String(w.workspaceId), '--url', r.url);
    await w.createTicket();
    await slow.waitFor(1);
    await r.waitFor(1);
    await w.admin('webhook', 'delete', '--workspace', String(w.workspaceId), '--id', String(w.endpoint.id));
    // The hanging attempt times out (1.5 s) and its result finds no delivery.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(t.logs.raw.filter((l) => l.includes('could not be recorded'))).toEqual([]);
    expect(await deliveries(t, w.workspaceId, other.id as number)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(r.received).toHaveLength(1);
  });

  it('signs with both secrets during a rotation, and the new one alone for a new endpoint', async () => {
    const r = await receiver();
    const w = await webhookWorkspace(t, r.url);
    const rotated = await w.admin('webhook', 'rotate-secret', '--workspace', String(w.workspaceId), '--id', String(w.endpoint.id));
    expect(rotated).toEqual({ id: w.endpoint.id, secret: expect.stringMatching(/^whsec_/), previousSecretUntil: expect.any(String) });
    expect(rotated.secret).not.toBe(w.endpoint.secret);
    await w.createTicket();
    const [got] = await r.waitFor(1);
    expect(String(got!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(r.verify(got!, rotated.secret as string).type).toBe('ticket.created');
    expect(r.verify(got!, w.endpoint.secret).type).toBe('ticket.created');
  });

  it('redelivers one delivery, or everything that failed since a time, with the same webhook-id', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const w = await webhookWorkspace(t, r.url);
    await w.createTicket('first');
    await w.createTicket('second');
    await eventually(async () => {
      const list = await deliveries(t, w.workspaceId, w.endpoint.id);
      expect(list.map((d) => d.status)).toEqual(['failed', 'failed']);
    });
    const [second, first] = await deliveries(t, w.workspaceId, w.endpoint.id);
    healthy = true;
    const n = r.received.length;
    const one = await w.admin('webhook', 'redeliver', '--workspace', String(w.workspaceId), '--id', String(w.endpoint.id), '--delivery', String(first!.id));
    expect(one).toEqual({ redelivered: 1 });
    // Run as the server's admin socket runs it (the server's effects): the redelivery wakes the dispatcher itself.
    const got = await r.waitFor(n + 1);
    expect(got.at(-1)!.headers['webhook-id']).toBe(first!.eventId);
    const all = await w.admin('webhook', 'redeliver', '--workspace', String(w.workspaceId), '--id', String(w.endpoint.id), '--since', new Date(Date.now() - 60_000).toISOString());
    expect(all).toEqual({ redelivered: 1 });
    const again = await r.waitFor(n + 2);
    expect(again.at(-1)!.headers['webhook-id']).toBe(second!.eventId);
    await eventually(async () => {
      expect((await deliveries(t, w.workspaceId, w.endpoint.id)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    });
  });
});
