import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helper.js';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import { deliveries, eventually, webhookWorkspace } from './webhook-fixtures.js';

/**
 * The per-endpoint cap (docs/tickets-and-webhooks.md, Webhooks): at most 16 attempts in flight to one endpoint, out of
 * the process's 64, so an endpoint that stops answering holds its own slots and no others.
 * Real receivers on loopback: one that never answers, one that answers at once.
 */
const PER_ENDPOINT = 16;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// An attempt deadline far beyond the test: the slow endpoint's attempts stay in flight throughout.
const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '600000' });
let slow: Receiver;
let fast: Receiver;
beforeAll(async () => {
  slow = await startReceiver(() => 'hang');
  fast = await startReceiver();
});
afterAll(async () => {
  // The hanging requests end (connection reset) before the app stops (after-hooks run in reverse
  // order), so it need not wait for them.
  await slow?.close();
  await fast?.close();
});

describe('attempts in flight per endpoint', () => {
  it('keeps a slow endpoint to its own slots: a fast endpoint next to it is sent at once', async () => {
    const stuck = await webhookWorkspace(t, slow.url);
    const healthy = await webhookWorkspace(t, fast.url);
    for (let i = 0; i < 3 * PER_ENDPOINT; i++) await stuck.createTicket(`stuck ${i}`);

    // The slow endpoint gets its 16 requests, open at once, and no more while none is answered.
    await slow.waitFor(PER_ENDPOINT, 20_000);
    await sleep(500);
    expect(slow.received).toHaveLength(PER_ENDPOINT);

    // Meanwhile every delivery of the fast endpoint goes out as soon as its ticket commits: well before
    // the next poll (60 s) or a slow attempt's deadline (10 min), which is what it would wait for if the
    // slow endpoint's attempts held its slots. (Under 10 s, not 1 s: a loaded CI machine stretches it.)
    for (let i = 0; i < 20; i++) {
      const before = Date.now();
      await healthy.createTicket(`fine ${i}`);
      const got = await fast.waitFor(i + 1, 10_000);
      expect(got[i]!.at - before).toBeLessThan(10_000);
      expect(fast.verify(got[i]!, healthy.endpoint.secret).data.subject).toBe(`fine ${i}`);
    }
    await eventually(async () => {
      const list = await deliveries(t, healthy.workspaceId, healthy.endpoint.id);
      expect(list.map((d) => d.status)).toEqual(Array(20).fill('succeeded'));
    });

    // The slow endpoint's other deliveries wait their turn (pending, no attempt yet), not failed.
    const waiting = await deliveries(t, stuck.workspaceId, stuck.endpoint.id);
    expect(waiting).toHaveLength(3 * PER_ENDPOINT);
    expect(waiting.every((d) => d.status === 'pending' && d.attempts.length === 0)).toBe(true);
    expect(slow.received).toHaveLength(PER_ENDPOINT);
  }, 120_000);
});
