import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiVectorSource } from '../../src/answers/retrieval/vectors/openai-source.js';
import { SemanticRanking } from '../../src/answers/retrieval/vectors/semantic-ranking.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from './answer-fixtures.js';

/**
 * #44 item 6: what an embeddings server (EMBEDDINGS_URL) sends back is bounded: a 100 MB reply is
 * cut off, a message's request stops at its deadline, and vectors of the wrong size are refused,
 * never stored or compared. A real loopback HTTP server plays the embeddings server.
 */
type Mode = 'normal' | 'huge' | 'drip' | { dimensions: number };

interface Peer {
  url: string;
  mode: Mode;
  /** Bytes written to the last reply before it ended or its connection closed. */
  sent: number;
  /** When the last reply's connection closed (performance.now()), or null while open. */
  closedAt: number | null;
  close(): Promise<void>;
}

const vectorOf = (text: string, dimensions: number) => Array.from({ length: dimensions }, (_, i) => ((text.length * (i + 1)) % 7) / 7 + 0.01);

async function embeddingsPeer(): Promise<Peer> {
  const peer = { mode: 'normal' as Mode, sent: 0, closedAt: null as number | null };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const { input } = JSON.parse(raw) as { input: string[] };
      peer.sent = 0;
      peer.closedAt = null;
      res.on('close', () => (peer.closedAt = performance.now()));
      const write = async (chunk: string) => {
        if (res.destroyed) return false;
        peer.sent += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
        return !res.destroyed;
      };
      const mode = peer.mode;
      res.writeHead(200, { 'content-type': 'application/json' });
      if (mode === 'huge') {
        // 100 MB of one vector, valid JSON to the end.
        const piece = `${'0.125,'.repeat(1024 * 1024 / 6)}`;
        if (!(await write('{"data":[{"index":0,"embedding":['))) return;
        for (let mb = 0; mb < 100; mb++) if (!(await write(piece))) return;
        res.end('0.125]}]}');
      } else if (mode === 'drip') {
        // A byte every 50 ms, for a minute.
        for (let i = 0; i < 1200; i++) {
          if (!(await write(i === 0 ? '{' : ' '))) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        res.end('}');
      } else {
        const dimensions = mode === 'normal' ? 16 : mode.dimensions;
        res.end(JSON.stringify({ data: input.map((text, index) => ({ index, embedding: vectorOf(text, dimensions) })) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(peer, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  });
}

const t = useTestApp();
let peer: Peer;
beforeAll(async () => {
  peer = await embeddingsPeer();
});
afterAll(() => peer.close());

const source = () => new OpenAiVectorSource({ baseUrl: peer.url, model: 'peer-embed', timeoutMs: 30_000 });

describe('replies from the embeddings server (#44)', () => {
  it('a 100 MB reply is refused once past the cap, its download cancelled', { timeout: 120_000 }, async () => {
    peer.mode = 'huge';
    const rssBefore = process.memoryUsage().rss;
    await expect(source().embed(['How do I reset my password?'], 'query')).rejects.toThrow(/reply is over \d+ bytes/);
    await expect.poll(() => peer.closedAt, { timeout: 10_000 }).not.toBeNull();
    // The server wrote little more than the cap and the sockets' buffers before the connection closed.
    expect(peer.sent).toBeLessThan(30 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('a reply dripping a byte at a time stops at the caller\'s deadline, and the connection with it', { timeout: 60_000 }, async () => {
    peer.mode = 'drip';
    const started = performance.now();
    await expect(source().embed(['Where is my invoice?'], 'query', AbortSignal.timeout(400))).rejects.toThrow(/stopped waiting/);
    expect(performance.now() - started).toBeLessThan(10_000);
    // Closed soon after the 400 ms, not after EMBEDDINGS_TIMEOUT_MS (30 s here) or the drip's minute.
    await expect.poll(() => peer.closedAt, { timeout: 10_000 }).not.toBeNull();
    expect(peer.closedAt! - started).toBeLessThan(10_000);
  });

  describe('through the semantic ranking of a workspace', () => {
    let ranking: SemanticRanking;
    const warnings: string[] = [];
    beforeAll(() => {
      ranking = new SemanticRanking({ source: source(), queryTimeoutMs: 400, cacheBytes: 64 * 1024 * 1024, log: { warn: (_d, message) => warnings.push(message), info: () => {} } });
    });
    afterAll(() => ranking.close());

    async function rankedWorkspace() {
      peer.mode = 'normal';
      const w = await answerWorkspace(t);
      await ranking.build({ db: t.db.prisma, workspaceId: w.workspaceId });
      const { knowledgeVersion: version } = await t.db.prisma.workspace.findUniqueOrThrow({ where: { id: w.workspaceId } });
      const semantic = await ranking.forWorkspace({ db: t.db.prisma, workspaceId: w.workspaceId, version });
      expect(semantic).toBeDefined();
      expect([...semantic!.vectors.values()][0]![0]).toHaveLength(16);
      return { w, version, semantic: semantic! };
    }

    it('a message\'s vector of 3 dimensions, where the knowledge\'s have 16, is refused and logged, never compared', { timeout: 120_000 }, async () => {
      const { w, version } = await rankedWorkspace();
      // A fresh source, as after a restart: only the knowledge's vectors tell the size.
      peer.mode = { dimensions: 3 };
      warnings.length = 0;
      const fresh = new SemanticRanking({ source: source(), queryTimeoutMs: 5000, cacheBytes: 64 * 1024 * 1024, log: { warn: (_d, message) => warnings.push(message), info: () => {} } });
      const options = await fresh.forWorkspace({ db: t.db.prisma, workspaceId: w.workspaceId, version });
      expect(await options!.embed(['How do I reset my password?'])).toEqual([null]);
      expect(warnings.join('\n')).toMatch(/vector of 3 dimensions, where the knowledge's have 16/);
      await fresh.close();
    });

    it('a message\'s request is aborted at the 400 ms deadline: the answer goes on without it, the download stops', { timeout: 120_000 }, async () => {
      const { semantic } = await rankedWorkspace();
      peer.mode = 'drip';
      const started = performance.now();
      expect(await semantic.embed(['Where is my invoice?'])).toEqual([null]);
      await expect.poll(() => peer.closedAt, { timeout: 10_000 }).not.toBeNull();
      expect(peer.closedAt! - started).toBeLessThan(10_000);
    });

    it('an article\'s vectors of 5,000 dimensions are refused and logged, never stored', { timeout: 120_000 }, async () => {
      const { w } = await rankedWorkspace();
      const stored = await t.db.prisma.articleVector.count({ where: { workspaceId: w.workspaceId } });
      await t.db.prisma.article.create({ data: { workspaceId: w.workspaceId, externalId: 'new-one', title: 'Shipping abroad', body: 'We ship to every country in the European Union within five days.' } });
      peer.mode = { dimensions: 5000 };
      warnings.length = 0;
      await ranking.build({ db: t.db.prisma, workspaceId: w.workspaceId });
      expect(warnings.join('\n')).toMatch(/computing the knowledge vectors failed/);
      expect(await t.db.prisma.articleVector.count({ where: { workspaceId: w.workspaceId } })).toBe(stored);
    });
  });
});
