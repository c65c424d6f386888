import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../src/answers/compose-answer.js';
import { OfflineGenerator } from '../../src/answers/generators/offline-generator.js';
import { probability } from '../../src/answers/retrieval/decide.js';
import { KnowledgeIndex, prepareArticle } from '../../src/answers/retrieval/knowledge-index.js';
import { retrieve } from '../../src/answers/retrieval/retrieve.js';
import { ARTICLES } from './answer-fixtures.js';

const index = new KnowledgeIndex(ARTICLES.map((a, i) => prepareArticle({ id: i + 1, ...a, url: a.url ?? null })));
const agent = { name: 'Helper', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };
const answer = (message: string, thread: string[] = []) =>
  composeAnswer({ index, message, thread: thread.map((question) => ({ question, reply: '' })), agent, generator: new OfflineGenerator() });
const score = async (message: string, thread: string[] = []) => (await answer(message, thread)).sources[0]?.score ?? 0;

describe('a follow-up judged with the thread', () => {
  it('is at least as sure of a follow-up with the thread as the message alone makes it', async () => {
    const alone = probability(retrieve(index, { message: 'and as CSV?', context: ['how do I export my invoices to PDF?'] }).features);
    const withThread = await answer('and as CSV?', ['how do I export my invoices to PDF?']);
    expect(withThread.sources[0]!.externalId).toBe('inv-csv');
    expect(withThread.sources[0]!.score).toBeGreaterThanOrEqual(Math.round(alone * 1000) / 1000);
  });

  it('never loses a short standalone question after an unrelated one', async () => {
    for (const message of ['how do I reset my password?', 'cancel subscription', 'android app']) {
      const before = await answer(message);
      const after = await answer(message, ['can I speak to a human']);
      expect(after.needsHuman, message).toBe(before.needsHuman);
      expect(after.sources[0]?.externalId, message).toBe(before.sources[0]?.externalId);
      expect(await score(message, ['can I speak to a human'])).toBeGreaterThanOrEqual(await score(message));
    }
  });
});

describe('a follow-up that says nothing the article says', () => {
  it('is not answered from the earlier answer\'s article on the strength of the earlier words', async () => {
    const first = await answer('how do I export my invoices to PDF?');
    expect(first.needsHuman).toBe(false);
    expect(first.sources[0]?.externalId).toBe('inv-pdf');
    for (const message of ['who made this feature?', 'can you do it for me?', 'which one do you like better?']) {
      const next = await answer(message, ['how do I export my invoices to PDF?']);
      expect(next.needsHuman, message).toBe(true);
    }
    // A follow-up whose own words the article has is still read with the thread.
    const csv = await answer('and as CSV?', ['how do I export my invoices to PDF?']);
    expect(csv.needsHuman).toBe(false);
    expect(csv.sources[0]?.externalId).toBe('inv-csv');
  });
});
