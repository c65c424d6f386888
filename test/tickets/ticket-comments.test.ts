import { describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';

// The webhook endpoint is never reached: the dispatcher is off, the rows say what would be sent.
// Building the app on a fresh database has taken over 90 s on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });
const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhookDispatcher: false });

async function ticketWithWidget() {
  const w = await answerWorkspace(t);
  const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects }).then((o) => o.body);
  const wst = (await admin('workspace', 'token', '--workspace', String(w.workspaceId))).token as string;
  await admin('webhook', 'create', '--workspace', String(w.workspaceId), '--url', 'http://127.0.0.1:9/hook');
  const widgetId = (await admin('widget', 'create', '--agent', w.agentId, '--origin', 'https://shop.example.com')).id as string;
  const widget = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/v1/widgets/${widgetId}${url}`, headers: { origin: 'https://shop.example.com', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
  const visitor = (await widget('POST', '/visitors', undefined, {})).json().token as string;
  const conversationId = (await widget('POST', '/messages', visitor, { message: 'Can I talk to a human?' })).json().conversationId as string;
  const ticketId = (await widget('POST', '/handoff', visitor, { conversationId, email: 'ana@customer.example' })).json().ticketId as number;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${wst}` }, ...(payload ? { payload } : {}) });
  return { ...w, wst, widget, visitor, conversationId, ticketId, api };
}

describe('/v1/tickets/{id}/comments', () => {
  it('adds a public reply (201) or an internal note; lists them; emits ticket.comment_created; the widget shows only public ones', async () => {
    const w = await ticketWithWidget();
    const reply = await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'We are on it.' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json()).toEqual({ id: expect.any(Number), ticketId: w.ticketId, body: 'We are on it.', public: true, author: 'team', createdAt: expect.any(String) });
    expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'internal only', public: false })).statusCode).toBe(201);
    const listed = (await w.api('GET', `/v1/tickets/${w.ticketId}/comments`)).json().comments;
    expect(listed.map((c: { body: string }) => c.body)).toEqual(['We are on it.', 'internal only']);
    const events = await t.db.prisma.webhookEvent.findMany({ where: { workspaceId: w.workspaceId, type: 'ticket.comment_created' } });
    expect(events).toHaveLength(2);

    const seen = (await w.widget('GET', `/conversations/${w.conversationId}`, w.visitor)).json();
    expect(seen.entries.filter((e: { from: string }) => e.from === 'team').map((e: { body: string }) => e.body)).toEqual(['We are on it.']);
    expect(JSON.stringify(seen)).not.toContain('internal only');
  });

  it('validates the body, and another workspace\'s ticket is 404', async () => {
    const w = await ticketWithWidget();
    const other = await ticketWithWidget();
    expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: '  ' })).json()).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^body: /) });
    expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'x', public: 'yes' })).statusCode).toBe(400);
    expect((await w.api('POST', `/v1/tickets/${other.ticketId}/comments`, { body: 'hello' })).statusCode).toBe(404);
    expect((await w.api('GET', `/v1/tickets/${other.ticketId}/comments`)).statusCode).toBe(404);
  });

  it('a customer\'s answer in the widget goes to the ticket and reopens it (ticket.updated)', async () => {
    const w = await ticketWithWidget();
    expect((await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' })).json().status).toBe('solved');
    const answered = await w.widget('POST', '/messages', w.visitor, { message: 'It still fails', conversationId: w.conversationId });
    expect(answered.json()).toMatchObject({ forwarded: true, message: '' });
    expect((await w.api('GET', `/v1/tickets/${w.ticketId}`)).json().status).toBe('open');
    const comments = (await w.api('GET', `/v1/tickets/${w.ticketId}/comments`)).json().comments;
    expect(comments).toEqual([expect.objectContaining({ author: 'requester', public: true, body: 'It still fails' })]);
    const updated = await t.db.prisma.webhookEvent.findMany({ where: { workspaceId: w.workspaceId, type: 'ticket.updated' }, orderBy: { createdAt: 'asc' } });
    expect(updated.map((e) => (JSON.parse(String(e.body)) as { data: { status: string } }).data.status)).toEqual(['solved', 'open']);
  });
});
