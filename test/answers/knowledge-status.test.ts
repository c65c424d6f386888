import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCookie } from '../factories.js';
import { buildTestApp, type TestApp } from '../helper.js';
import { ARTICLES, answerWorkspace } from './answer-fixtures.js';

/**
 * GET …/knowledge-status (issue #47 item 1): articles, with vectors, building since, time left. A loopback embeddings
 * server answers the first requests at once and holds the rest until the test lets them through, so the build can
 * be looked at half way.
 */
let server: Server;
let app: TestApp;
let served = 0;
let freeUntil = 3;
/** Set: every request is answered with this HTTP status. */
let failWith: number | null = null;
const held: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (failWith !== null) return void res.writeHead(failWith, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded at 10.0.0.7"}}');
      const { input, model } = JSON.parse(raw) as { input: string[]; model: string };
      const send = () => {
        served++;
        const data = input.map((_, index) => ({ object: 'embedding', index, embedding: [1, index % 2, 0.5] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model, data }));
      };
      if (served < freeUntil) send();
      else held.push(send);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  app = await buildTestApp({ SEMANTIC_RANKING: 'true', EMBEDDINGS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, EMBEDDINGS_MODEL: 'toy', EMBEDDINGS_TIMEOUT_MS: '120000' });
});
afterAll(async () => {
  for (const send of held.splice(0)) send();
  await app?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('the knowledge status', () => {
  it('says how many articles have vectors, since when the build runs and about how long it has left', async () => {
    const w = await answerWorkspace(app);
    const { cookie } = await loginCookie(app.app, w.owner.email, w.owner.password);
    const status = async () => {
      const res = await app.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/knowledge-status`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    // Asking starts the build (nothing was asked of the agent yet).
    const first = await status();
    expect(first).toMatchObject({ articles: ARTICLES.length, semanticRanking: true, rankingByMeaning: false });
    expect(first.withVectors).toBeLessThan(ARTICLES.length);
    // Half way: three articles embedded, the fourth held.
    let mid = first;
    for (let i = 0; i < 600 && mid.withVectors < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      mid = await status();
    }
    expect(mid).toMatchObject({ articles: ARTICLES.length, withVectors: 3, rankingByMeaning: false });
    expect(Date.parse(mid.buildingSince)).toBeLessThanOrEqual(Date.now());
    expect(mid.secondsLeft).toBeGreaterThanOrEqual(0);
    // Let the rest through.
    freeUntil = Infinity;
    for (const send of held.splice(0)) send();
    await app.app.semanticRanking!.idle();
    expect(await status()).toMatchObject({ articles: ARTICLES.length, withVectors: ARTICLES.length, rankingByMeaning: true, buildingSince: null, secondsLeft: null });
  });

  it('says what failed, when, and from when it is tried again when the embeddings server refuses the build', async () => {
    const w = await answerWorkspace(app);
    const { cookie } = await loginCookie(app.app, w.owner.email, w.owner.password);
    const status = async () => (await app.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/knowledge-status`, headers: { cookie } })).json();
    failWith = 503;
    try {
      const asked = Date.now();
      // Asking starts the build; its first request is refused, and the build stops there.
      expect(await status()).toMatchObject({ withVectors: 0, failure: null });
      await app.app.semanticRanking!.idle();
      const failed = await status();
      expect(failed).toMatchObject({ articles: ARTICLES.length, withVectors: 0, rankingByMeaning: false, buildingSince: null, secondsLeft: null, stalledSince: null });
      // In words for the console, without what the server said (the log has it).
      expect(failed.failure).toMatchObject({ kind: 'http_error', reason: 'The embeddings server refused the request (HTTP 503).' });
      expect(Date.parse(failed.failure.at)).toBeGreaterThanOrEqual(asked);
      expect(Date.parse(failed.failure.retryAt) - Date.parse(failed.failure.at)).toBe(30_000);
      // Read again before retryAt: no new build, the same failure.
      expect((await status()).failure).toEqual(failed.failure);
    } finally {
      failWith = null;
    }
  });

  it('is refused to a non-member', async () => {
    const w = await answerWorkspace(app);
    const res = await app.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/knowledge-status` });
    expect(res.statusCode).toBe(401);
  });
});
