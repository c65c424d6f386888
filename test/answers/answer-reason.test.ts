import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_REASONS } from '../../src/answers/schemas.js';
import { buildTestApp, type TestApp, useTestApp } from '../helper.js';
import { loginCookie } from '../factories.js';
import { answerWorkspace, ask } from './answer-fixtures.js';

/** `POST /v1/answer`'s `reason` (issue #47 item 5): the turn's code beside the seed's fields, null when answered. */
const t = useTestApp();

const SEED_FIELDS = ['agentId', 'confidence', 'conversationId', 'message', 'needs_human', 'sources'];

async function reasonOf(token: string, body: object) {
  const res = await ask(t, token, body);
  expect(res.statusCode).toBe(200);
  const json = res.json();
  expect(Object.keys(json).sort()).toEqual([...SEED_FIELDS, 'reason'].sort());
  // The turn the console shows stores the same code.
  const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: json.conversationId }, orderBy: { id: 'desc' } });
  expect(turn.reason).toBe(json.reason);
  // Null exactly when no person is needed.
  expect(json.needs_human).toBe(json.reason !== null);
  return json as { reason: string | null; needs_human: boolean; sources: { externalId: string }[] };
}

describe('POST /v1/answer: reason', () => {
  it('is null when answered, and for a courtesy line', async () => {
    const w = await answerWorkspace(t);
    expect((await reasonOf(w.token, { message: 'I forgot my password, how do I reset it?' })).reason).toBeNull();
    expect((await reasonOf(w.token, { message: 'thanks, that worked!' })).reason).toBeNull();
  });

  it('is no_knowledge when nothing in the knowledge answers', async () => {
    const w = await answerWorkspace(t);
    expect((await reasonOf(w.token, { message: 'what is the capital of peru?' })).reason).toBe('no_knowledge');
  });

  it('is human_requested when the user asks for a person, account_action for what only staff can do', async () => {
    const w = await answerWorkspace(t);
    expect((await reasonOf(w.token, { message: 'can I speak to a human' })).reason).toBe('human_requested');
    expect((await reasonOf(w.token, { message: 'I was charged twice this month, please refund me' })).reason).toBe('account_action');
  });

  it("is handoff_topic for a message naming one of the agent's hand-off topics", async () => {
    const w = await answerWorkspace(t);
    await t.db.prisma.agent.update({ where: { id: w.agentId }, data: { handoffTopics: ['export invoices'] } });
    expect((await reasonOf(w.token, { message: 'How do I export invoices to PDF?' })).reason).toBe('handoff_topic');
  });

  it('is attachment_unreadable when no file could be read and the agent hands such messages over', async () => {
    const w = await answerWorkspace(t);
    await w.admin('agent', 'update', '--workspace', String(w.workspaceId), '--id', w.agentId, '--attachment-fallback', 'needs_human');
    const garbage = Buffer.from('definitely not a png').toString('base64');
    expect((await reasonOf(w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'image/png', contentBase64: garbage }] })).reason).toBe('attachment_unreadable');
  });

  it('is earlier_turn on a later turn of a conversation a person took over, answered all the same', async () => {
    const w = await answerWorkspace(t);
    expect((await reasonOf(w.token, { message: 'can I speak to a human', conversationRef: 'r' })).reason).toBe('human_requested');
    const later = await reasonOf(w.token, { message: 'how do I reset my password?', conversationRef: 'r' });
    expect(later.reason).toBe('earlier_turn');
    expect(later.sources[0]?.externalId).toBe('pw-reset');
  });

  it('is staff_handoff for a message staff said should have gone to a person (a confirmed hand-off)', async () => {
    const w = await answerWorkspace(t);
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    const first = (await reasonOf(w.token, { message: 'How do I export invoices to PDF?' })) as unknown as { reason: string | null; conversationId: string };
    expect(first.reason).toBeNull();
    const turns = (await t.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/conversations/${first.conversationId}`, headers: { cookie } })).json().turns;
    const put = await t.app.inject({ method: 'PUT', url: `/agent/workspaces/${w.workspaceId}/conversations/${first.conversationId}/turns/${turns[0].id}/feedback`, headers: { cookie }, payload: { verdict: 'needs_human' } });
    expect(put.statusCode).toBe(200);
    const again = await reasonOf(w.token, { message: 'how do i export invoices to pdf' });
    expect([again.needs_human, again.reason]).toEqual([true, 'staff_handoff']);
  });

  it('is listed, each code described, in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
    const schema = doc.components.schemas.AnswerResponse;
    expect(schema.required ?? []).toContain('reason');
    const reason = schema.properties.reason;
    const values = JSON.stringify(reason);
    for (const code of ['no_knowledge', 'unclear_match', 'not_covered', 'human_requested', 'account_action', 'handoff_topic', 'attachment_unreadable', 'earlier_turn', 'staff_handoff']) {
      expect(values).toContain(`"${code}"`);
      expect(reason.description).toContain(`\`${code}\`:`);
    }
  });
});

/**
 * unclear_match through the API: vectors from a loopback embeddings server put "Spreadsheet downloads" first by
 * meaning, the CSV article first by words, and "Invoices" blended ahead of both.
 */
const VECTORS: [RegExp, number[]][] = [
  [/^Export invoices to a CSV file/, [0, 0, 0, 1]],
  [/^Spreadsheet downloads/, [0, 1, 0, 0]],
  [/^Invoices/, [0, 0.95, 0, 0.31]],
];
const KB = [
  { externalId: 'words', title: 'Export invoices to a CSV file', body: 'Export invoices to a CSV file from the Invoices list: click Export, choose CSV file.' },
  { externalId: 'meaning', title: 'Spreadsheet downloads for accountants', body: 'Accountants get spreadsheets of everything billed from the Reports page.' },
  { externalId: 'between', title: 'Invoices', body: 'Create, send and export invoices. Invoices list every client payment.' },
];

describe('POST /v1/answer: reason unclear_match', () => {
  let server: Server;
  let app: TestApp;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const { input, model } = JSON.parse(raw) as { input: string[]; model: string };
        const data = input.map((text, index) => ({ object: 'embedding', index, embedding: VECTORS.find(([re]) => re.test(text))?.[1] ?? [0, 1, 0, 0] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model, data }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    app = await buildTestApp({ SEMANTIC_RANKING: 'true', EMBEDDINGS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, EMBEDDINGS_MODEL: 'toy' });
  });
  afterAll(async () => {
    await app?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('is unclear_match when the article blended first is first neither by the words nor by the meaning', async () => {
    const w = await answerWorkspace(app, { articles: KB });
    // Sure of whatever ranks first: only the rule can hand the message over.
    await app.db.prisma.workspace.update({ where: { id: w.workspaceId }, data: { decisionModel: { bias: 8, weights: {} } } });
    const message = 'export invoices csv file';
    await ask(app, w.token, { message });
    await app.app.semanticRanking!.idle();
    const res = await ask(app, w.token, { message });
    expect(res.json()).toMatchObject({ needs_human: true, reason: 'unclear_match' });
    expect(res.json().sources[0].externalId).toBe('between');
  });
});


describe('reason in the documents', () => {
  it('the README and docs/answers.md name every code the OpenAPI document lists', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../docs/answers.md', import.meta.url), 'utf8');
    for (const code of ANSWER_REASONS) {
      expect(readme, code).toContain(`\`${code}\``);
      expect(guide, code).toContain(`| \`${code}\` |`);
    }
  });
});
