import { describe, expect, it } from 'vitest';
import { BuiltinVectorSource, defaultEncoderThreads } from '../../src/answers/retrieval/vectors/builtin-source.js';
import { dot } from '../../src/answers/retrieval/vectors/vector-source.js';

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

describe('the built-in sentence encoder on several threads', () => {
  it('shares waiting messages out among its threads and gives each message its own vector, in order', async () => {
    const one = new BuiltinVectorSource({ threads: 1 });
    const two = new BuiltinVectorSource({ threads: 2 });
    try {
      const alone = await one.embed(messages, 'query');
      // Eight answers arriving together, as at eight connections.
      const together = await Promise.all(messages.map((m) => two.embed([m], 'query')));
      expect(two.threads).toBe(2);
      expect(one.threads).toBe(1);
      for (const [i, [v]] of together.entries()) expect(dot(v!, alone[i]!)).toBeGreaterThan(0.999);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 120_000);

  it('answers a message while a knowledge passage is embedded, on a second thread that stops again when idle', async () => {
    const source = new BuiltinVectorSource({ threads: 2, idleMs: 300 });
    try {
      await source.embed(['warm up'], 'query');
      // An import's passages: one slice at a time, the message between or beside them, never after them all.
      const sentence = 'Invoices are listed under Billing, where each one can be downloaded as a PDF file or sent again by email.';
      let passagesDone = false;
      const passages = source
        .embed(Array.from({ length: 40 }, (_, i) => `${i}. ${sentence} ${sentence} ${sentence}`), 'background')
        .then(() => (passagesDone = true));
      const [message] = await source.embed(['where are my invoices?'], 'query');
      expect(message).toHaveLength(512);
      expect(passagesDone).toBe(false);
      // A second thread was started for the work waiting beside the passages.
      expect(source.threads).toBe(2);
      await passages;
      await expect.poll(() => source.threads, { timeout: 15_000, interval: 100 }).toBe(1);
      // The thread kept still works.
      expect(await source.embed(['still there?'], 'query')).toHaveLength(1);
    } finally {
      await source.close();
    }
  }, 120_000);

  it('runs half the cores, at least two threads and at most four', () => {
    expect([1, 2, 3, 4, 6, 8, 16, 64].map((cores) => defaultEncoderThreads(cores))).toEqual([2, 2, 2, 2, 3, 4, 4, 4]);
  });
});
