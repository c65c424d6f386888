import { describe, expect, it } from 'vitest';
import { loginCookie, makeKey } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask } from './answer-fixtures.js';

const t = useTestApp({ MAX_ANSWER_ATTACHMENT_BYTES: '1000' });

const turns = (workspaceId: number) => t.db.prisma.conversationTurn.count({ where: { workspaceId } });

describe('POST /v1/answer: the answer', () => {
  it('answers from the best article, cites it with a score in [0,1], and stores the turn', async () => {
    const w = await answerWorkspace(t);
    const res = await ask(t, w.token, { message: 'I forgot my password, how do I reset it?', channel: 'email' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['agentId', 'confidence', 'conversationId', 'message', 'needs_human', 'reason', 'sources']);
    expect(body.agentId).toBe(w.agentId);
    expect(body.conversationId).toMatch(/^cnv_/);
    expect(body.needs_human).toBe(false);
    expect(['high', 'medium']).toContain(body.confidence);
    expect(body.sources[0]).toMatchObject({ externalId: 'pw-reset', title: 'Reset your password' });
    for (const [i, s] of body.sources.entries()) {
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(s.score).toBeLessThanOrEqual(body.sources[i - 1].score);
    }
    expect(body.message).toContain('Forgot password');
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: body.conversationId } });
    expect(turn).toMatchObject({ question: 'I forgot my password, how do I reset it?', reply: body.message, channel: 'email', agentId: w.agentId, needsHuman: false, confidence: body.confidence });
    expect(turn.sources).toEqual(body.sources);
    expect(turn.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('needs a human, with the fallback and referral, no sources and low confidence, when nothing relevant is known', async () => {
    const w = await answerWorkspace(t, { fallback: 'I do not know that one.', referral: 'Write to help@example.com.' });
    const body = (await ask(t, w.token, { message: 'what is the capital of peru?' })).json();
    expect(body).toMatchObject({ needs_human: true, sources: [], confidence: 'low', message: 'I do not know that one.\n\nWrite to help@example.com.' });
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: body.conversationId } });
    expect(turn.reason).toBe('no_knowledge');
  });

  it('needs a human when the user asks for a person, whatever the knowledge says, handing over what it weighed', async () => {
    const w = await answerWorkspace(t, { fallback: 'A person will help you.' });
    const body = (await ask(t, w.token, { message: 'I want to talk to a real person about my password' })).json();
    expect(body).toMatchObject({ needs_human: true, confidence: 'low' });
    // The person taking over (and the caller) start from the passages the message was weighed against.
    expect(body.sources.map((s: { externalId: string }) => s.externalId)).toContain('pw-reset');
    expect(body.message).toMatch(/^A person will help you\.\n\nI am passing this to a person\. Meanwhile, these articles may be related: .*"Reset your password" \(https:\/\/help\.example\/pw-reset\)/);
    const bare = (await ask(t, w.token, { message: 'can I speak to a human' })).json();
    expect(bare).toMatchObject({ needs_human: true, sources: [], confidence: 'low', message: 'A person will help you.' });
  });

  it('hands over a message the knowledge does not answer with the articles it was weighed against, at low scores', async () => {
    const w = await answerWorkspace(t);
    const body = (await ask(t, w.token, { message: 'does the android app work on my smart watch and my car dashboard?' })).json();
    expect(body).toMatchObject({ needs_human: true, confidence: 'low' });
    expect(body.sources[0]).toMatchObject({ externalId: 'android', title: 'Android app' });
    for (const s of body.sources) expect(s.score).toBeLessThan(0.6);
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: body.conversationId } });
    expect(turn).toMatchObject({ reason: 'no_knowledge', needsHuman: true });
    expect(turn.sources).toEqual(body.sources);
  });

  it('continues a conversation by conversationRef and reads a follow-up with the thread', async () => {
    const w = await answerWorkspace(t);
    const first = (await ask(t, w.token, { message: 'how do I export my invoices to PDF?', conversationRef: 'ticket-1' })).json();
    expect(first.sources[0].externalId).toBe('inv-pdf');
    const second = (await ask(t, w.token, { message: 'and as CSV?', conversationRef: 'ticket-1' })).json();
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.sources[0].externalId).toBe('inv-csv');
    const other = (await ask(t, w.token, { message: 'how do I export my invoices to PDF?' })).json();
    expect(other.conversationId).not.toBe(first.conversationId);
    expect(await t.db.prisma.conversationTurn.count({ where: { conversationId: first.conversationId } })).toBe(2);
  });

  it('answers "thanks!" with a courtesy line and leaves the conversation with the agent', async () => {
    const w = await answerWorkspace(t);
    const first = (await ask(t, w.token, { message: 'how do I export my invoices to PDF?', conversationRef: 'polite' })).json();
    expect(first.needs_human).toBe(false);
    const thanks = (await ask(t, w.token, { message: 'thanks, that worked!', conversationRef: 'polite' })).json();
    expect(thanks).toMatchObject({ conversationId: first.conversationId, needs_human: false, sources: [], confidence: 'high' });
    expect(thanks.message).toMatch(/welcome/i);
    const conversation = await t.db.prisma.conversation.findUniqueOrThrow({ where: { id: first.conversationId } });
    expect(conversation.needsHuman).toBe(false);
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: first.conversationId, question: 'thanks, that worked!' } });
    expect(turn).toMatchObject({ needsHuman: false, reason: null, sources: [] });
  });

  it('keeps needs_human on later turns of a conversation that needed a human', async () => {
    const w = await answerWorkspace(t);
    const first = (await ask(t, w.token, { message: 'can I speak to a human', conversationRef: 'c' })).json();
    expect(first.needs_human).toBe(true);
    const second = (await ask(t, w.token, { message: 'how do I reset my password?', conversationRef: 'c' })).json();
    expect(second).toMatchObject({ needs_human: true, confidence: 'low' });
    expect(second.sources[0].externalId).toBe('pw-reset');
  });

  it('continues one conversation when first calls with the same ref arrive together', async () => {
    const w = await answerWorkspace(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => ask(t, w.token, { message: 'how do I cancel my subscription?', conversationRef: 'together' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.json().conversationId)).size).toBe(1);
    expect(await turns(w.workspaceId)).toBe(8);
  });

  it('uses a knowledge change on the very next call', async () => {
    const w = await answerWorkspace(t);
    const before = (await ask(t, w.token, { message: 'how do I connect my smart fridge?' })).json();
    expect(before.needs_human).toBe(true);
    await w.admin('knowledge', 'add', '--workspace', String(w.workspaceId), '--external-id', 'fridge', '--title', 'Connect your smart fridge', '--body', 'Open Integrations, choose Smart fridge and scan the code on the fridge door to connect it.');
    const after = (await ask(t, w.token, { message: 'how do I connect my smart fridge?' })).json();
    expect(after).toMatchObject({ needs_human: false });
    expect(after.sources[0].externalId).toBe('fridge');
    await w.admin('knowledge', 'remove', '--workspace', String(w.workspaceId), '--external-id', 'fridge');
    expect((await ask(t, w.token, { message: 'how do I connect my smart fridge?' })).json().needs_human).toBe(true);
  });

  it('chooses the named agent, else the default; a new --default agent takes over', async () => {
    const w = await answerWorkspace(t);
    const second = await w.admin('agent', 'create', '--workspace', String(w.workspaceId), '--name', 'Second');
    expect(second.default).toBe(false);
    expect((await ask(t, w.token, { message: 'cancel subscription' })).json().agentId).toBe(w.agentId);
    expect((await ask(t, w.token, { message: 'cancel subscription', agentId: second.id })).json().agentId).toBe(second.id);
    const third = await w.admin('agent', 'create', '--workspace', String(w.workspaceId), '--name', 'Third', '--default');
    expect(third.default).toBe(true);
    expect((await ask(t, w.token, { message: 'cancel subscription' })).json().agentId).toBe(third.id);
  });
});

describe('POST /v1/answer: refusals', () => {
  it('accepts only X-API-Key with a live ans_ key: 401 invalid_api_key otherwise', async () => {
    const w = await answerWorkspace(t);
    const { token: tsk } = await makeKey(t.db, w.owner.id);
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    const attempts = [
      {},
      { authorization: `Bearer ${w.token}` },
      { 'x-api-key': tsk },
      { 'x-api-key': `wst_${'a'.repeat(46)}` },
      // A changed last character (never the same one) fails the checksum.
      { 'x-api-key': `${w.token.slice(0, -1)}${w.token.endsWith('x') ? 'y' : 'x'}` },
      { cookie },
    ];
    for (const headers of attempts) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/answer', headers, payload: { message: 'hi' } });
      expect(res.statusCode).toBe(401);
      expect(Object.keys(res.json()).sort()).toEqual(['error', 'message']);
      expect(res.json().error).toBe('invalid_api_key');
    }
    await w.admin('answer-key', 'revoke', '--workspace', String(w.workspaceId), '--id', String(w.keyId));
    expect((await ask(t, w.token, { message: 'hi' })).json().error).toBe('invalid_api_key');
    expect(await turns(w.workspaceId)).toBe(0);
  });

  it('refuses bad input with 4xx in the /v1 shape, naming the field, and stores nothing', async () => {
    const w = await answerWorkspace(t);
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const cases: [unknown, number, string, string][] = [
      [{}, 400, 'invalid_request', 'message'],
      [{ message: '   ' }, 400, 'invalid_request', 'message'],
      [{ message: 'x'.repeat(100_000) }, 400, 'invalid_request', 'message'],
      [{ message: '\ud800' }, 400, 'invalid_request', 'message'],
      [{ message: 'hi', extra: 1 }, 400, 'invalid_request', 'extra'],
      [{ message: 'hi', attachments: [{ mime: 'image/png', contentBase64: `data:image/png;base64,${png}` }] }, 400, 'invalid_request', 'attachments.0.contentBase64'],
      [{ message: 'hi', attachments: [{ mime: 'image/png', contentBase64: 'not base64!' }] }, 400, 'invalid_request', 'attachments.0.contentBase64'],
      [{ message: 'hi', attachments: Array(6).fill({ mime: 'image/png', contentBase64: png }) }, 400, 'invalid_request', 'attachments'],
      [{ message: 'hi', attachments: [{ mime: 'png', contentBase64: png }] }, 400, 'invalid_request', 'attachments.0.mime'],
      [{ message: 'hi', attachments: [{ mime: 'application/pdf', contentBase64: 'A'.repeat(2000) }] }, 413, 'attachment_too_large', 'attachments.0'],
      [{ message: 'hi', conversationRef: '' }, 400, 'invalid_request', 'conversationRef'],
      [{ message: 'hi', agentId: 7 }, 400, 'invalid_request', 'agentId'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await ask(t, w.token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().error).toBe(code);
      expect(res.json().message).toContain(field);
    }
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token, 'content-type': 'application/json' }, payload: '{"message":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('invalid_request');
    const text = await t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token, 'content-type': 'text/plain' }, payload: 'hi' });
    expect(text.statusCode).toBe(415);
    expect(Object.keys(text.json()).sort()).toEqual(['error', 'message']);
    expect(await turns(w.workspaceId)).toBe(0);
  });

  it('answers agent_not_found for an unknown, foreign or unpublished agent, and for a workspace without one', async () => {
    const w = await answerWorkspace(t);
    const other = await answerWorkspace(t);
    const hidden = await w.admin('agent', 'create', '--workspace', String(w.workspaceId), '--name', 'Hidden', '--unpublished');
    for (const agentId of ['agt_nope', '123', '../x', 'x'.repeat(100), other.agentId, hidden.id]) {
      const res = await ask(t, w.token, { message: 'hi', agentId });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('agent_not_found');
    }
    await w.admin('agent', 'update', '--workspace', String(w.workspaceId), '--id', w.agentId, '--published', 'false');
    const none = await ask(t, w.token, { message: 'hi' });
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('agent_not_found');
    expect(await turns(w.workspaceId)).toBe(0);
  });

  it('limits new conversations per month when the workspace has a limit; continuing one is allowed', async () => {
    const w = await answerWorkspace(t);
    await w.admin('workspace', 'limit', '--workspace', String(w.workspaceId), '--conversations', '2');
    expect((await ask(t, w.token, { message: 'cancel', conversationRef: 'a' })).statusCode).toBe(200);
    expect((await ask(t, w.token, { message: 'cancel' })).statusCode).toBe(200);
    const third = await ask(t, w.token, { message: 'cancel' });
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toBe('conversation_limit_reached');
    expect((await ask(t, w.token, { message: 'and the android app?', conversationRef: 'a' })).statusCode).toBe(200);
    await w.admin('workspace', 'limit', '--workspace', String(w.workspaceId), '--conversations', 'unlimited');
    expect((await ask(t, w.token, { message: 'cancel' })).statusCode).toBe(200);
  });

  it('answers unknown /v1 routes with 404 in the /v1 shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/answers' });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json()).sort()).toEqual(['error', 'message']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/answer' })).statusCode).toBe(404);
  });
});
