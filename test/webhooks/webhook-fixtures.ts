import { expect } from 'vitest';
import { answerWorkspace, adminOf } from '../answers/answer-fixtures.js';
import type { TestAppHandle } from '../helper.js';

/** A workspace with a ticket token and one endpoint (made with the CLI) pointing at `url`. */
export async function webhookWorkspace(t: TestAppHandle, url: string, events?: string) {
  const admin = adminOf(t);
  const w = await answerWorkspace(t);
  const { token } = (await admin('workspace', 'token', '--workspace', String(w.workspaceId))) as { token: string };
  const created = await admin('webhook', 'create', '--workspace', String(w.workspaceId), '--url', url, ...(events ? ['--events', events] : []));
  expect(Object.keys(created).sort()).toEqual(['id', 'secret', 'url']);
  const endpoint = created as { id: number; url: string; secret: string };
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
    t.app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  const createTicket = async (subject = 'Cannot export invoices') => {
    const res = await call('POST', '/v1/tickets', { subject, requester: { email: 'ana@customer.example' } });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; subject: string; updatedAt: string };
  };
  return { ...w, admin, wst: token, endpoint, call, createTicket };
}

/** The endpoint's deliveries through the CLI (newest first, attempts oldest first). */
export async function deliveries(t: TestAppHandle, workspaceId: number, endpointId: number) {
  const out = await adminOf(t)('webhook', 'deliveries', '--workspace', String(workspaceId), '--id', String(endpointId), '--limit', '100');
  return out.deliveries as {
    id: number;
    eventId: string;
    eventType: string;
    status: string;
    nextAttemptAt: string | null;
    attempts: { statusCode: number | null; error: string | null; responseExcerpt: string | null; succeeded: boolean; durationMs: number }[];
  }[];
}

/** Polls until `check` passes (for states the dispatcher reaches after a receiver answered). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
