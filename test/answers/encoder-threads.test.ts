import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BuiltinVectorSource, defaultEncoderThreads } from '../../src/answers/retrieval/vectors/builtin-source.js';
import { dot, VectorSourceError } from '../../src/answers/retrieval/vectors/vector-source.js';

const messages = [
  'how can I change my password?',
  'where do I download my invoices?',
  'the export to a spreadsheet leaves out archived cards',
  'can I move to the yearly plan?',
  'my wireless network is not in the list',
  'how do I connect a printer?',
  'the screen is too dark after the update',
  'why is the app slow on my phone?',
];
const sentence = 'Invoices are listed under Billing, where each one can be downloaded as a PDF file or sent again by email.';
/** An import's passages: embedded one slice at a time, on one thread, for a few seconds. */
const passages = (n: number) => Array.from({ length: n }, (_, i) => `${i}. ${sentence} ${sentence} ${sentence}`);

describe('the built-in sentence encoder on several threads', () => {
  it('shares messages arriving together among its idle threads, each message with its own vector, in order', async () => {
    const one = new BuiltinVectorSource({ threads: 1 });
    const two = new BuiltinVectorSource({ threads: 2, idleMs: 60_000 });
    try {
      const alone = await one.embed(messages, 'query');
      // Both threads started and loaded: a message waiting beside an import starts the second.
      await two.embed(['warm up'], 'query');
      const importing = two.embed(passages(20), 'background');
      await two.embed(['beside the import'], 'query');
      await importing;
      expect(two.threads).toBe(2);
      // Eight answers arriving together, as at eight connections. A round on a loaded machine can find
      // one thread not yet idle again (then one thread rightly takes them all): up to five rounds, and
      // at least one must have used both threads; every round's vectors must be right.
      let shared = false;
      for (let round = 0; round < 5 && !shared; round++) {
        const before = two.batches;
        const together = await Promise.all(messages.map((m) => two.embed([m], 'query')));
        const after = two.batches;
        shared = after[0]! - before[0]! > 0 && after[1]! - before[1]! > 0;
        for (const [i, [v]] of together.entries()) expect(dot(v!, alone[i]!)).toBeGreaterThan(0.999);
      }
      expect(shared, 'no round put batches on both threads').toBe(true);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 120_000);

  it('gives the messages waiting to the one warm thread in one batch rather than in several while a second loads', async () => {
    const source = new BuiltinVectorSource({ threads: 4 });
    try {
      await source.embed(['warm up'], 'query');
      const [before] = source.batches;
      const vectors = await Promise.all(messages.map((m) => source.embed([m], 'query')));
      expect(vectors.every(([v]) => v!.length === 512)).toBe(true);
      // The first message alone (it found the thread idle), then the seven that waited behind it.
      expect(source.batches[0]! - before!).toBeLessThanOrEqual(2);
    } finally {
      await source.close();
    }
  }, 120_000);

  it('answers a message during an import, keeps its second thread while passages remain, and stops it when idle', async () => {
    const source = new BuiltinVectorSource({ threads: 2, idleMs: 300 });
    try {
      await source.embed(['warm up'], 'query');
      let passagesDone = false;
      const importing = source.embed(passages(120), 'background').then(() => (passagesDone = true));
      const [message] = await source.embed(['where are my invoices?'], 'query');
      expect(message).toHaveLength(512);
      expect(passagesDone).toBe(false);
      // A second thread was started for the work waiting beside the passages...
      expect(source.threads).toBe(2);
      // ...and is kept past its idle time while the passages remain.
      await new Promise((r) => setTimeout(r, 900));
      expect(passagesDone, 'the import outlasted three idle times (else this test checks nothing)').toBe(false);
      expect(source.threads).toBe(2);
      await importing;
      await expect.poll(() => source.threads, { timeout: 15_000, interval: 100 }).toBe(1);
      // The thread kept still works.
      expect(await source.embed(['still there?'], 'query')).toHaveLength(1);
    } finally {
      await source.close();
    }
  }, 120_000);

  it('fails what waits when its thread cannot start, and does not restart it in a loop', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'encoder-'));
    const entry = path.join(dir, 'broken.mjs');
    await writeFile(entry, "throw new Error('no model here');\n");
    const source = new BuiltinVectorSource({ threads: 2, entry: pathToFileURL(entry) });
    try {
      await expect(source.embed(['hello'], 'query')).rejects.toBeInstanceOf(VectorSourceError);
      // Right after, nothing is started again: the next text fails at once.
      const started = Date.now();
      await expect(source.embed(['hello again'], 'background')).rejects.toThrow(/could not start/);
      expect(Date.now() - started).toBeLessThan(500);
      expect(source.threads).toBe(0);
    } finally {
      await source.close();
    }
  }, 60_000);

  it('runs half the cores, at least two threads and at most four', () => {
    expect([1, 2, 3, 4, 6, 8, 16, 64].map((cores) => defaultEncoderThreads(cores))).toEqual([2, 2, 2, 2, 3, 4, 4, 4]);
  });
});
