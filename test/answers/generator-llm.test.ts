import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask } from './answer-fixtures.js';

/** An OpenAI-compatible chat-completions server on loopback, scripted per test. */
interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: unknown }[] };
}
let seen: Seen[] = [];
let script: ((n: number) => { status: number; body?: unknown; delayMs?: number }) = () => ({ status: 200, body: reply('ok') });
const reply = (content: string) => ({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

const server = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    seen.push({ path: req.url!, authorization: req.headers.authorization, body: JSON.parse(data) });
    const step = script(seen.length);
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(step.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(step.body ?? { error: { message: 'scripted failure' } }));
    }, step.delayMs ?? 0);
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
// Built once the server listens, and closed before it stops (after-hooks run in reverse order).
const t = useTestApp(() => ({
  LLM_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  LLM_API_KEY: 'sk-test',
  LLM_MODEL: 'test-model',
  // Long enough for a loaded CI machine to answer the tests that expect an answer (at 300 ms, the
  // first call of a thread sometimes timed out there, and the second found no thread).
  LLM_TIMEOUT_MS: '2000',
  LLM_RETRIES: '2',
  LLM_BACKOFF_MS: '10',
}));
beforeEach(() => {
  seen = [];
});

describe('the OpenAI-compatible generator', () => {
  it('writes the reply from the retrieved passages and the thread, with the model and key', async () => {
    const w = await answerWorkspace(t);
    script = () => ({ status: 200, body: reply('Use "Forgot password?" on the sign-in page (from "Reset your password").') });
    expect((await ask(t, w.token, { message: 'how do I export invoices to PDF', conversationRef: 'llm-1' })).statusCode).toBe(200);
    const res = await ask(t, w.token, { message: 'I forgot my password, what now?', conversationRef: 'llm-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Use "Forgot password?" on the sign-in page (from "Reset your password").', needs_human: false });
    expect(res.json().sources[0].externalId).toBe('pw-reset');
    const call = seen.at(-1)!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.body.model).toBe('test-model');
    const system = String(call.body.messages[0]!.content);
    expect(call.body.messages[0]!.role).toBe('system');
    expect(system).toContain('We e-mail you a reset link valid for 60 minutes');
    expect(system).toContain('NOT_COVERED');
    // The earlier turn is in the thread, then the new message last.
    expect(call.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(call.body.messages[1]!.content).toBe('how do I export invoices to PDF');
    expect(call.body.messages.at(-1)!.content).toBe('I forgot my password, what now?');
  });

  it('needs a human when the model says the passages do not cover the question', async () => {
    const w = await answerWorkspace(t, { fallback: 'A person will answer.' });
    script = () => ({ status: 200, body: reply('NOT_COVERED') });
    const body = (await ask(t, w.token, { message: 'how do I reset my password?' })).json();
    // The passages the model judged go with the hand-off.
    expect(body).toMatchObject({ needs_human: true, confidence: 'low', reason: 'not_covered', sources: [{ externalId: 'pw-reset' }] });
    expect(body.message).toMatch(/^A person will answer\.\n\nI am passing this to a person\./);
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: body.conversationId } });
    expect(turn.reason).toBe('not_covered');
  });

  it('retries 5xx with backoff and answers when a retry succeeds', async () => {
    const w = await answerWorkspace(t);
    script = (n) => (n < 3 ? { status: 500 } : { status: 200, body: reply('third time lucky') });
    const res = await ask(t, w.token, { message: 'how do I reset my password?' });
    expect(res.json().message).toBe('third time lucky');
    expect(seen).toHaveLength(3);
  });

  it('answers 502 answer_failed after its retries, storing nothing', async () => {
    const w = await answerWorkspace(t);
    script = () => ({ status: 503 });
    const res = await ask(t, w.token, { message: 'how do I reset my password?' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'answer_failed', message: expect.stringContaining('503') });
    expect(seen).toHaveLength(3);
    expect(await t.db.prisma.conversationTurn.count({ where: { workspaceId: w.workspaceId } })).toBe(0);
  });

  it('times out a model that does not answer, and retries', async () => {
    const w = await answerWorkspace(t);
    script = () => ({ status: 200, body: reply('too late'), delayMs: 10_000 });
    const started = Date.now();
    const res = await ask(t, w.token, { message: 'how do I reset my password?' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain('no answer within 2000 ms');
    expect(seen).toHaveLength(3);
    // Three attempts of 2 s each, not three of the model's 10 s.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('does not retry a 400 from the model server', async () => {
    const w = await answerWorkspace(t);
    script = () => ({ status: 400 });
    expect((await ask(t, w.token, { message: 'how do I reset my password?' })).statusCode).toBe(502);
    expect(seen).toHaveLength(1);
  });

  it('is not called when nothing relevant was found or a person is asked for', async () => {
    const w = await answerWorkspace(t);
    script = () => ({ status: 200, body: reply('should not be used') });
    expect((await ask(t, w.token, { message: 'what is the capital of peru?' })).json().needs_human).toBe(true);
    expect((await ask(t, w.token, { message: 'let me talk to a human' })).json().needs_human).toBe(true);
    expect(seen).toHaveLength(0);
  });
});
