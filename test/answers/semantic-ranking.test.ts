import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { BuiltinVectorSource } from '../../src/answers/retrieval/vectors/builtin-source.js';
import { dot } from '../../src/answers/retrieval/vectors/vector-source.js';
import { buildTestApp, type TestApp, testConfig } from '../helper.js';
import { answerWorkspace, ask } from './answer-fixtures.js';
import { EventBus } from '../../src/boards/activity/event-bus.js';

/**
 * A toy embeddings server (OpenAI's /v1/embeddings shape) on loopback: a text's vector counts the
 * concepts its words name, so "credentials" and "password" meet where no word is shared. It records
 * what it was asked, and can be slowed or stopped.
 */
const CONCEPTS: string[][] = [
  ['password', 'passwords', 'credentials', 'passcode'],
  ['forgot', 'reset', 'lost', 'locked', 'recover'],
  ['invoice', 'invoices', 'bill', 'bills', 'billing', 'statement', 'statements'],
  ['pdf', 'printable', 'print', 'document'],
  ['csv', 'spreadsheet', 'excel'],
  ['cancel', 'subscription', 'plan', 'quit', 'stop', 'paying'],
  ['android', 'phone', 'mobile', 'google'],
  ['calendar', 'calendars', 'sync', 'syncing', 'agenda'],
  ['slack', 'chat', 'channel'],
];

function toyVector(text: string): number[] {
  const v = new Array(CONCEPTS.length + 1).fill(0);
  v[CONCEPTS.length] = 0.05;
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    CONCEPTS.forEach((words, i) => {
      if (words.includes(word)) v[i] += 1;
    });
  }
  return v;
}

interface ToyServer {
  url: string;
  requests: { model: string; input: string[]; authorization: string | undefined }[];
  delayMs: number;
  down: boolean;
  close(): Promise<void>;
}

async function toyEmbeddings(): Promise<ToyServer> {
  const state = { requests: [] as ToyServer['requests'], delayMs: 0, down: false };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (state.down) {
        res.writeHead(503).end();
        return;
      }
      const body = JSON.parse(raw) as { model: string; input: string[] };
      state.requests.push({ model: body.model, input: body.input, authorization: req.headers.authorization });
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: body.model, data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: toyVector(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe('semantic ranking through an OpenAI-compatible embeddings endpoint', () => {
  let toy: ToyServer;
  let t: TestApp;
  beforeAll(async () => {
    toy = await toyEmbeddings();
    t = await buildTestApp({ SEMANTIC_RANKING: 'true', EMBEDDINGS_URL: toy.url, EMBEDDINGS_MODEL: 'toy-embed', EMBEDDINGS_API_KEY: 'sk-test-123' });
  });
  afterAll(async () => {
    await t?.close();
    await toy?.close();
  });

  it('computes the articles\' vectors in the background, keeps them, and ranks a message by meaning with them', async () => {
    const w = await answerWorkspace(t);
    // Worded so that no article shares a word with it: lexically nothing relevant.
    const message = 'I lost my credentials, locked out';
    const before = (await ask(t, w.token, { message })).json();
    expect(before.sources).toEqual([]);
    // That first answer started the build; it ran in the background.
    await t.app.semanticRanking!.idle();
    const rows = await t.db.prisma.articleVector.findMany({ where: { workspaceId: w.workspaceId } });
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.model))).toEqual(new Set(['openai:toy-embed']));
    const asked = toy.requests.flatMap((r) => r.input);
    expect(asked).toContain('Reset your password');
    expect(toy.requests.every((r) => r.model === 'toy-embed' && r.authorization === 'Bearer sk-test-123')).toBe(true);

    const after = (await ask(t, w.token, { message })).json();
    expect(after.sources[0]?.externalId).toBe('pw-reset');
  });

  it('a second process on the same database reads the stored vectors instead of computing them again', async () => {
    const w = await answerWorkspace(t);
    await ask(t, w.token, { message: 'where is my bill?' });
    await t.app.semanticRanking!.idle();
    const computed = toy.requests.length;
    const other = await buildApp({ events: new EventBus(), config: testConfig({ DATA_DIR: t.config.dataDir, SEMANTIC_RANKING: 'true', EMBEDDINGS_URL: toy.url, EMBEDDINGS_MODEL: 'toy-embed' }), db: t.db, docsAtStart: false });
    try {
      const res = await other.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': w.token }, payload: { message: 'I need a printable statement' } });
      expect(res.statusCode).toBe(200);
      await other.semanticRanking!.idle();
      // Only the message was embedded: every article's vectors came from the database.
      const since = toy.requests.slice(computed).flatMap((r) => r.input);
      expect(since).toEqual(['I need a printable statement']);
      expect(['inv-pdf', 'inv-csv']).toContain(res.json().sources[0]?.externalId);
    } finally {
      await other.close();
    }
  });

  it('an edited article is ranked lexically until its new vectors exist, then by them', async () => {
    const w = await answerWorkspace(t);
    await ask(t, w.token, { message: 'hello there, anything' });
    await t.app.semanticRanking!.idle();
    const row = await t.db.prisma.article.findFirstOrThrow({ where: { workspaceId: w.workspaceId, externalId: 'slack' } });
    const oldHash = (await t.db.prisma.articleVector.findFirstOrThrow({ where: { articleId: row.id } })).contentHash;
    await w.admin('knowledge', 'import', '--workspace', String(w.workspaceId), '--file', await tmpJson([{ externalId: 'slack', title: 'Slack integration', body: 'Post tasks to your team chat.' }]));
    await ask(t, w.token, { message: 'hello there, anything' });
    await t.app.semanticRanking!.idle();
    const fresh = await t.db.prisma.articleVector.findFirstOrThrow({ where: { articleId: row.id } });
    expect(fresh.contentHash).not.toBe(oldHash);
  });

  it('answers lexically, never with an error, while the endpoint is slow or down', async () => {
    const w = await answerWorkspace(t);
    await ask(t, w.token, { message: 'warm up' });
    await t.app.semanticRanking!.idle();
    toy.down = true;
    try {
      const res = await ask(t, w.token, { message: 'I forgot my password, how do I reset it?' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ needs_human: false, sources: [expect.objectContaining({ externalId: 'pw-reset' })] });
    } finally {
      toy.down = false;
    }
    toy.delayMs = 5000;
    try {
      const started = Date.now();
      const res = await ask(t, w.token, { message: 'I forgot my password, how do I reset it?' });
      expect(res.statusCode).toBe(200);
      expect(res.json().sources[0]?.externalId).toBe('pw-reset');
      // SEMANTIC_QUERY_TIMEOUT_MS (400 ms) bounds the wait, not the endpoint's 5 s.
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      toy.delayMs = 0;
    }
  });

  it('answers during a knowledge import, before the new articles have vectors', async () => {
    const w = await answerWorkspace(t);
    toy.delayMs = 300;
    try {
      const articles = Array.from({ length: 40 }, (_, i) => ({ externalId: `bulk-${i}`, title: `Bulk article ${i}`, body: `Topic number ${i} about nothing in particular.` }));
      await w.admin('knowledge', 'import', '--workspace', String(w.workspaceId), '--file', await tmpJson(articles));
      const started = Date.now();
      const res = await ask(t, w.token, { message: 'Export invoices to CSV' });
      expect(res.statusCode).toBe(200);
      expect(res.json().sources[0]?.externalId).toBe('inv-csv');
      // The 40 articles' vectors (12 s at this endpoint's pace) were not waited for.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await t.db.prisma.articleVector.count({ where: { workspaceId: w.workspaceId } })).toBeLessThan(48);
    } finally {
      toy.delayMs = 0;
      await t.app.semanticRanking!.idle();
    }
  });
});

describe('the built-in sentence encoder (Universal Sentence Encoder Lite, offline)', () => {
  it('embeds in a worker thread: related texts are nearer than unrelated ones', async () => {
    const source = new BuiltinVectorSource();
    try {
      const [q, near, far] = await source.embed(['how can I change my password?', 'Change your password from the security settings', 'Export invoices to a spreadsheet'], 'query');
      expect(q).toHaveLength(512);
      expect(dot(q!, q!)).toBeCloseTo(1, 3);
      expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!) + 0.1);
    } finally {
      await source.close();
    }
  }, 60_000);
});

async function tmpJson(value: unknown) {
  const { writeFile } = await import('node:fs/promises');
  const os = await import('node:os');
  const path = await import('node:path');
  const file = path.join(os.tmpdir(), `kb-${process.pid}-${Date.now()}-${Math.random()}.json`);
  await writeFile(file, JSON.stringify(value));
  return file;
}
