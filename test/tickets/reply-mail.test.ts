import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { runCommand } from '../../src/cli/run-command.js';
import { LogCapture, useTestApp, type TestAppHandle } from '../helper.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { loginCookie } from '../factories.js';
import { LoopbackSmtp, linkIn } from '../smtp-server.js';
import { SseClient } from '../sse-client.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

// Building the app on a fresh database has taken over 90 s on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

const smtp = new LoopbackSmtp();
beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

let seq = 0;
async function handedOff(t: TestAppHandle) {
  const w = await answerWorkspace(t);
  const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects }).then((o) => o.body);
  const wst = (await admin('workspace', 'token', '--workspace', String(w.workspaceId))).token as string;
  const widgetId = (await admin('widget', 'create', '--agent', w.agentId, '--origin', 'https://shop.example.com')).id as string;
  const widget = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/v1/widgets/${widgetId}${url}`, headers: { origin: 'https://shop.example.com', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
  const visitor = (await widget('POST', '/visitors', undefined, {})).json().token as string;
  const conversationId = (await widget('POST', '/messages', visitor, { message: 'My export <script>alert(1)</script> fails' })).json().conversationId as string;
  const email = `customer${++seq}-${Date.now()}@customer.example`;
  const ticketId = (await widget('POST', '/handoff', visitor, { conversationId, email })).json().ticketId as number;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${wst}` }, ...(payload ? { payload } : {}) });
  return { ...w, widgetId, widget, visitor, conversationId, ticketId, email, api };
}

describe('a team reply by mail', () => {
  const t = useTestApp(() => smtp.env({ REPLY_MAIL_DELAY_MS: '300', PUBLIC_BASE_URL: 'https://support.example.test' }));

  it('mails a public reply (never a note) quoting it with a link that opens the thread; the customer answers there (open again) and rates once solved', async () => {
    const w = await handedOff(t);
    expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'internal: check the logs', public: false })).statusCode).toBe(201);
    const reply = await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'Hello!\n\nPlease retry the **export** at https://evil.example/x now.' });
    expect(reply.statusCode).toBe(201);

    const mail = await smtp.waitFor(w.email);
    expect(smtp.to(w.email)).toHaveLength(1);
    expect(mail.subject).toContain(`[#${w.ticketId}]`);
    expect(mail.text).toContain('> Please retry the **export** at [link removed] now.');
    expect(mail.text).not.toContain('internal');
    const url = linkIn(mail.text.replace(/^> .*$/gm, ''))!;
    expect(url).toMatch(/^https:\/\/support\.example\.test\/reply\/trl_[\w-]+$/);
    const token = url.split('/reply/')[1]!;
    // Stored hashed: the token itself is nowhere in the database.
    const links = await t.db.prisma.ticketReplyLink.findMany({ where: { ticketId: w.ticketId } });
    expect(links).toHaveLength(1);
    expect(links[0]!.tokenHash).not.toContain(token.slice(4, 20));
    expect(links[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const thread = await t.app.inject({ method: 'GET', url: `/v1/replies/${token}` });
    expect(thread.statusCode, thread.body).toBe(200);
    expect(thread.json()).toMatchObject({ ticket: { id: w.ticketId, status: 'open' }, rated: false });
    const bodies = thread.json().entries.map((e: { from: string; body: string }) => `${e.from}: ${e.body}`);
    expect(bodies[0]).toBe('customer: My export <script>alert(1)</script> fails');
    expect(bodies.at(-1)).toContain('team: Hello!');
    expect(JSON.stringify(bodies)).not.toContain('internal');

    expect((await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' })).statusCode).toBe(200);
    const answer = await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/comments`, payload: { body: 'Still broken, sorry' } });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ author: 'requester', public: true, body: 'Still broken, sorry' });
    expect((await w.api('GET', `/v1/tickets/${w.ticketId}`)).json().status).toBe('open');
    // The customer's own answer is never mailed back to them.
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: w.email } })).toBe(1);

    const early = await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/rating`, payload: { score: 4 } });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('not_solved');
    await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' });
    expect((await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/rating`, payload: { score: 6 } })).statusCode).toBe(400);
    const rated = await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/rating`, payload: { score: 4, comment: 'Quick, thanks' } });
    expect(rated.statusCode, rated.body).toBe(201);
    expect(rated.json()).toEqual({ ticketId: w.ticketId, score: 4, comment: 'Quick, thanks' });
    const again = await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/rating`, payload: { score: 1 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('already_rated');
    expect((await t.app.inject({ method: 'GET', url: `/v1/replies/${token}` })).json().rated).toBe(true);
  });

  it('a wrong or expired link is a clear 404, never a 500', async () => {
    const w = await handedOff(t);
    await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'We are looking' });
    const url = linkIn((await smtp.waitFor(w.email)).text.replace(/^> .*$/gm, ''))!;
    const token = url.split('/reply/')[1]!;
    for (const bad of ['nope', `trl_${'x'.repeat(32)}`, `${token}x`, 'trl_%00%27']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/replies/${bad}` });
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ error: 'link_not_valid', message: expect.stringContaining('expired') });
    }
    await t.db.prisma.ticketReplyLink.updateMany({ where: { ticketId: w.ticketId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await t.app.inject({ method: 'GET', url: `/v1/replies/${token}` })).json().error).toBe('link_not_valid');
    expect((await t.app.inject({ method: 'POST', url: `/v1/replies/${token}/comments`, payload: { body: 'hi' } })).statusCode).toBe(404);
    // The page itself is served (it shows the refusal); its path is a working link, so never logged.
    expect((await t.app.inject({ method: 'GET', url: `/reply/${token}` })).statusCode).toBe(200);
  });

  it('replies are their own uncapped kind: the holes issue\'s per-address caps never hold one back', async () => {
    const w = await handedOff(t);
    for (let i = 0; i < 12; i++) expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: `Reply ${i}` })).statusCode).toBe(201);
    expect(await t.db.prisma.mailMessage.count({ where: { recipient: w.email, kind: 'ticket-reply' } })).toBe(12);
  });
});

describe('an open widget acknowledges the reply', () => {
  // Long enough that nothing is mailed before the acknowledgement, on any machine.
  const t = useTestApp(() => smtp.env({ REPLY_MAIL_DELAY_MS: '60000' }));

  it('the mail waits in the outbox (durable, due 60 s later); the widget\'s acknowledgement holds it back; another visitor cannot', async () => {
    const w = await handedOff(t);
    const first = (await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'Seen in the widget' })).json();
    const second = (await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'Not seen' })).json();
    const rows = await t.db.prisma.mailMessage.findMany({ where: { recipient: w.email }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['ticket-reply', 'pending'], ['ticket-reply', 'pending']]);
    expect(rows[0]!.nextAttemptAt.getTime() - rows[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(59_000);

    const stranger = (await w.widget('POST', '/visitors', undefined, {})).json().token as string;
    expect((await w.widget('POST', `/conversations/${w.conversationId}/replies/${first.id}/seen`, stranger)).statusCode).toBe(404);
    expect((await w.widget('POST', `/conversations/${w.conversationId}/replies/999999/seen`, w.visitor)).statusCode).toBe(404);
    const seen = await w.widget('POST', `/conversations/${w.conversationId}/replies/${first.id}/seen`, w.visitor);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({ mailHeldBack: true });
    expect((await w.widget('POST', `/conversations/${w.conversationId}/replies/${first.id}/seen`, w.visitor)).json()).toEqual({ mailHeldBack: false });
    const left = await t.db.prisma.mailMessage.findMany({ where: { recipient: w.email } });
    expect(left.map((r) => r.key)).toEqual([`ticket-reply:${second.id}`]);
    expect(await t.db.prisma.ticketReplyLink.count({ where: { commentId: first.id } })).toBe(0);

    // The widget's own rating, once solved.
    expect((await w.widget('POST', `/conversations/${w.conversationId}/rating`, w.visitor, { score: 5 })).json().error).toBe('not_solved');
    await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' });
    const conversation = (await w.widget('GET', `/conversations/${w.conversationId}`, w.visitor)).json();
    expect(conversation).toMatchObject({ ticketStatus: 'solved', rated: false });
    expect((await w.widget('POST', `/conversations/${w.conversationId}/rating`, stranger, { score: 1 })).statusCode).toBe(404);
    expect((await w.widget('POST', `/conversations/${w.conversationId}/rating`, w.visitor, { score: 5 })).statusCode).toBe(201);
    expect((await w.widget('POST', `/conversations/${w.conversationId}/rating`, w.visitor, { score: 2 })).json().error).toBe('already_rated');
    expect((await w.widget('GET', `/conversations/${w.conversationId}`, w.visitor)).json().rated).toBe(true);
  });

  it('the widget\'s stream carries each reply (with its id, to acknowledge) and the ticket\'s new status (solved: ask for a rating)', async () => {
    const w = await handedOff(t);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await SseClient.open(`${base}/v1/widgets/${w.widgetId}/conversations/${w.conversationId}/events`, { origin: 'https://shop.example.com', authorization: `Bearer ${w.visitor}` });
    try {
      expect(stream.status).toBe(200);
      const reply = (await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'Live reply' })).json();
      await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' });
      await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { priority: 'high' });
      await expect.poll(() => stream.events.map((e) => e.event)).toEqual(['reply', 'status']);
      expect(stream.events[0]!.id).toBe(String(reply.id));
      expect(JSON.parse(stream.events[0]!.data)).toMatchObject({ from: 'team', body: 'Live reply' });
      expect(JSON.parse(stream.events[1]!.data)).toEqual({ status: 'solved' });
    } finally {
      stream.close();
    }
  });

  it('the console\'s metrics count ratings, and conversations resolved by the agent alone versus with a person', async () => {
    const w = await handedOff(t);
    // Another conversation the agent resolved alone.
    await w.widget('POST', '/messages', w.visitor, { message: 'How do I reset my password?' });
    await w.api('PATCH', `/v1/tickets/${w.ticketId}`, { status: 'solved' });
    await w.widget('POST', `/conversations/${w.conversationId}/rating`, w.visitor, { score: 3 });
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    const session = await t.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/support-metrics`, headers: { cookie } });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().satisfaction).toEqual({ ratings: 1, average: 3, byScore: [{ score: 1, count: 0 }, { score: 2, count: 0 }, { score: 3, count: 1 }, { score: 4, count: 0 }, { score: 5, count: 0 }] });
    expect(session.json().conversations).toMatchObject({ total: 2, handedToPerson: 1, solvedWithPerson: 1 });
  });
});

describe('a restart while the reply waits', () => {
  // This app records mail but never sends it: it stands for a process stopped before the reply fell due.
  const t = useTestApp(() => smtp.env({ REPLY_MAIL_DELAY_MS: '2000' }), { mailWorker: false });

  it('the mail is a due row in the outbox, not a timer: another process started later sends it', async () => {
    const w = await handedOff(t);
    expect((await w.api('POST', `/v1/tickets/${w.ticketId}/comments`, { body: 'Sent before the restart' })).statusCode).toBe(201);
    await t.app.close();
    const next = await buildApp({ events: new EventBus(), config: t.config, db: t.db, docsAtStart: false, logStream: new LogCapture() });
    try {
      await next.ready();
      const mail = await smtp.waitFor(w.email);
      expect(mail.text).toContain('> Sent before the restart');
    } finally {
      await next.close();
    }
  });
});
