import { describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { signIdentity } from '../../src/widget/identity.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';

// Building the app on a fresh database has taken over 90 s on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });
const t = useTestApp({ WIDGET_VISITOR_MESSAGES_MAX: '4', PUBLIC_BASE_URL: 'https://support.example' });
const SHOP = 'https://shop.example.com';

async function widgetSetup(extra: string[] = []) {
  const w = await answerWorkspace(t);
  const out = await runCommand(['widget', 'create', '--agent', w.agentId, '--origin', SHOP, '--origin', 'https://*.example.org', ...extra], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
  expect(out.exitCode, JSON.stringify(out.body)).toBe(0);
  const widgetId = out.body.id as string;
  const call = (method: 'GET' | 'POST' | 'OPTIONS', url: string, options: { payload?: object; token?: string; origin?: string | null; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method,
      url: `/v1/widgets/${widgetId}${url}`,
      headers: {
        ...(options.origin === null ? {} : { origin: options.origin ?? SHOP }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.payload ? { payload: options.payload } : {}),
    });
  const visit = async (payload: object = {}) => {
    const res = await call('POST', '/visitors', { payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().token as string;
  };
  return { ...w, widgetId, out: out.body, secret: out.body.identitySecret as string, call, visit };
}

describe('widget admin commands', () => {
  it('create prints the id and the snippet; list, update and delete work', async () => {
    const w = await widgetSetup();
    expect(w.widgetId).toMatch(/^wdg_[0-9A-Za-z]{20}$/);
    expect(w.out.snippet).toBe(`<script src="https://support.example/widget.js" data-widget="${w.widgetId}" async></script>`);
    expect(w.secret).toMatch(/^wis_/);
    const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    const listed = await admin('widget', 'list', '--agent', w.agentId);
    expect(listed.body.widgets).toEqual([expect.objectContaining({ id: w.widgetId, origins: [SHOP, 'https://*.example.org'], launcherSide: 'right' })]);
    expect(JSON.stringify(listed.body)).not.toContain(w.secret);
    const updated = await admin('widget', 'update', '--id', w.widgetId, '--greeting', 'Hello there', '--launcher-side', 'left', '--color', '#AA0000');
    expect(updated.body).toMatchObject({ greeting: 'Hello there', launcherSide: 'left', color: '#aa0000' });
    expect((await admin('widget', 'create', '--agent', w.agentId, '--origin', 'shop.example.com')).body.error).toMatch(/--origin: .*not an origin/);
    expect((await admin('widget', 'create', '--agent', 'agt_nope', '--origin', SHOP)).body.error).toMatch(/no agent/);
    expect((await admin('widget', 'delete', '--id', w.widgetId)).exitCode).toBe(0);
    expect((await w.call('GET', '')).statusCode).toBe(404);
  });
});

describe('the widget surface', () => {
  it('answers only its origins: CORS for those, 403 without CORS headers for the others', async () => {
    const w = await widgetSetup();
    const ok = await w.call('GET', '');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
    expect(ok.json()).toMatchObject({ id: w.widgetId, teamName: 'Support', verificationRequired: false });
    expect(ok.body).not.toContain('wis_');
    expect((await w.call('GET', '', { origin: 'https://help.example.org' })).statusCode).toBe(200);
    for (const origin of ['https://evil.example', 'https://example.org', 'http://shop.example.com', 'https://shop.example.com.evil.example']) {
      const refused = await w.call('GET', '', { origin });
      expect(refused.statusCode, origin).toBe(403);
      expect(refused.json()).toEqual({ error: 'origin_not_allowed', message: expect.stringContaining(origin) });
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await w.call('GET', '', { origin: null })).statusCode).toBe(403);
    const preflight = await w.call('OPTIONS', '/messages', { headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
    expect((await w.call('OPTIONS', '/messages', { origin: 'https://evil.example', headers: { 'access-control-request-method': 'POST' } })).statusCode).toBe(403);
  });

  it('asks the agent as /v1/answer does, sources with their URLs; a visitor reads only its own conversations', async () => {
    const w = await widgetSetup();
    const ana = await w.visit();
    const bob = await w.visit();
    const asked = await w.call('POST', '/messages', { token: ana, payload: { message: 'I forgot my password, how do I reset it?' } });
    expect(asked.statusCode, asked.body).toBe(200);
    const reply = asked.json();
    expect(reply).toMatchObject({ conversationId: expect.stringMatching(/^cnv_/), needs_human: false });
    expect(reply.sources[0]).toEqual({ title: 'Reset your password', url: 'https://help.example/pw-reset' });
    const next = await w.call('POST', '/messages', { token: ana, payload: { message: 'and how long is the link valid?', conversationId: reply.conversationId } });
    expect(next.json().conversationId).toBe(reply.conversationId);

    const mine = await w.call('GET', `/conversations/${reply.conversationId}`, { token: ana });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().entries.map((e: { from: string }) => e.from)).toEqual(['visitor', 'agent', 'visitor', 'agent']);
    expect((await w.call('GET', '/conversations', { token: ana })).json().conversations).toEqual([{ id: reply.conversationId, updatedAt: expect.any(String) }]);

    expect((await w.call('GET', `/conversations/${reply.conversationId}`, { token: bob })).statusCode).toBe(404);
    expect((await w.call('GET', '/conversations', { token: bob })).json().conversations).toEqual([]);
    const continued = await w.call('POST', '/messages', { token: bob, payload: { message: 'hi', conversationId: reply.conversationId } });
    expect(continued.statusCode).toBe(404);
    // A forged or missing visitor token is refused.
    expect((await w.call('GET', '/conversations', { token: `wvt_${'A'.repeat(43)}` })).statusCode).toBe(401);
    expect((await w.call('POST', '/messages', { payload: { message: 'hi' } })).statusCode).toBe(401);
    // Another widget's visitor token is not this widget's.
    const other = await widgetSetup();
    const stranger = await other.visit();
    expect((await w.call('GET', '/conversations', { token: stranger })).statusCode).toBe(401);
  });

  it('verifies identities: a forged signature is refused; a verified person sees their conversations from another device', async () => {
    const w = await widgetSetup(['--verification-required', 'true']);
    const identity = { userId: 'u-42', email: 'ana@shop.example.com' };
    const forged = await w.call('POST', '/visitors', { payload: { identity: { ...identity, signature: signIdentity('wis_guess', identity.userId, identity.email) } } });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe('identity_not_verified');
    const otherUser = await w.call('POST', '/visitors', { payload: { identity: { ...identity, userId: 'u-43', signature: signIdentity(w.secret, identity.userId, identity.email) } } });
    expect(otherUser.statusCode).toBe(403);
    expect((await w.call('POST', '/visitors', { payload: {} })).statusCode).toBe(403);

    const signature = signIdentity(w.secret, identity.userId, identity.email);
    const laptop = await w.call('POST', '/visitors', { payload: { identity: { ...identity, signature } } });
    expect(laptop.json()).toMatchObject({ verified: true });
    const phone = await w.visit({ identity: { ...identity, signature } });
    const asked = await w.call('POST', '/messages', { token: laptop.json().token, payload: { message: 'How do I export invoices to CSV?' } });
    const conversationId = asked.json().conversationId;
    expect((await w.call('GET', `/conversations/${conversationId}`, { token: phone })).statusCode).toBe(200);
    // The hand-off of a verified person uses the signed address.
    const ticket = await w.call('POST', '/handoff', { token: phone, payload: { conversationId, email: 'someone-else@evil.example' } });
    expect(ticket.json()).toMatchObject({ email: 'ana@shop.example.com' });
  });

  it('hands off into one ticket (double click included), visible to GET /v1/tickets and linked to the conversation', async () => {
    const w = await widgetSetup();
    const visitor = await w.visit();
    const message = `Can I talk to a human about my contract? ${'x'.repeat(300)}`;
    const asked = (await w.call('POST', '/messages', { token: visitor, payload: { message } })).json();
    expect(asked.needs_human).toBe(true);
    expect((await w.call('POST', '/handoff', { token: visitor, payload: { conversationId: asked.conversationId } })).statusCode).toBe(400);
    const [first, second] = await Promise.all([
      w.call('POST', '/handoff', { token: visitor, payload: { conversationId: asked.conversationId, email: 'ana@customer.example' } }),
      w.call('POST', '/handoff', { token: visitor, payload: { conversationId: asked.conversationId, email: 'ana@customer.example' } }),
    ]);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().ticketId).toBe(first.json().ticketId);
    const wst = (await runCommand(['workspace', 'token', '--workspace', String(w.workspaceId)], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects })).body.token as string;
    const tickets = (await t.app.inject({ method: 'GET', url: '/v1/tickets', headers: { authorization: `Bearer ${wst}` } })).json().tickets;
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ id: first.json().ticketId, conversationId: asked.conversationId, requester: { email: 'ana@customer.example' }, status: 'open' });
    expect(tickets[0].subject).toBe(message.slice(0, 200).trim());
    expect(tickets[0].description).toContain('Customer: Can I talk to a human');
    expect((await w.call('GET', `/conversations/${asked.conversationId}`, { token: visitor })).json().ticketId).toBe(first.json().ticketId);
  });

  it('limits messages per visitor (429 with Retry-After) and applies the workspace\'s monthly conversation limit', async () => {
    const w = await widgetSetup();
    const visitor = await w.visit();
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 6; i++) {
      const res = await w.call('POST', '/messages', { token: visitor, payload: { message: 'hello' } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        retryAfter = res.headers['retry-after'] as string;
        expect(res.headers['access-control-allow-origin']).toBe(SHOP);
      }
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);

    const limited = await widgetSetup();
    await runCommand(['workspace', 'limit', '--workspace', String(limited.workspaceId), '--conversations', '1'], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    const a = await limited.visit();
    expect((await limited.call('POST', '/messages', { token: a, payload: { message: 'hello' } })).statusCode).toBe(200);
    const refused = await limited.call('POST', '/messages', { token: await limited.visit(), payload: { message: 'hello' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('conversation_limit_reached');
  });

  it('refuses attachments when the widget takes none, and a huge one', async () => {
    const w = await widgetSetup(['--attachments', 'false']);
    const visitor = await w.visit();
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const refused = await w.call('POST', '/messages', { token: visitor, payload: { message: 'see this', attachments: [{ mime: 'image/png', contentBase64: png }] } });
    expect(refused.statusCode).toBe(400);
    const open = await widgetSetup();
    const huge = await open.call('POST', '/messages', { token: await open.visit(), payload: { message: 'see this', attachments: [{ mime: 'image/png', contentBase64: 'A'.repeat(21 * 1024 * 1024) }] } });
    expect(huge.statusCode).toBe(413);
  });
});
