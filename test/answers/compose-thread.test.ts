import { readFileSync } from 'node:fs';
import path from 'node:path';
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

describe('a follow-up read with the article the earlier turn was answered from', () => {
  // GNOME's help (eval/kb-gnome): "I need to add a French keyboard layout", answered from "Use alternative
  // keyboard layouts", then "what's the quickest way to switch between the two?", which says nothing of keyboards.
  const gnome = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../eval/kb-gnome/articles.json'), 'utf8')) as { externalId: string; title: string; body: string }[])
    .map((a, i) => prepareArticle({ id: i + 1, ...a, url: null }));
  const gnomeIndex = new KnowledgeIndex(gnome);
  const followUp = (cited?: string) =>
    composeAnswer({ index: gnomeIndex, message: "what's the quickest way to switch between the two?", thread: [{ question: 'I need to add a French keyboard layout', reply: '', cited }], agent, generator: new OfflineGenerator() });

  it('is surer of the same article with it than with the earlier words alone', async () => {
    const without = await followUp();
    const withCited = await followUp('keyboard-layouts');
    expect(without.sources[0]!.externalId).toBe('keyboard-layouts');
    expect(withCited.sources[0]!.externalId).toBe('keyboard-layouts');
    expect(withCited.sources[0]!.score).toBeGreaterThan(without.sources[0]!.score);
  });

  it('changes nothing when the article cited is gone from the knowledge or unrelated to the new question', async () => {
    const without = await followUp();
    expect(await followUp('no-such-article')).toEqual(without);
    // The thread's reading is used only where its best article is the one ranked first: a new topic is judged as before.
    const ask = (cited?: string) =>
      composeAnswer({ index: gnomeIndex, message: 'how do I print on both sides of the paper?', thread: [{ question: 'I need to add a French keyboard layout', reply: '', cited }], agent, generator: new OfflineGenerator() });
    const before = await ask();
    expect(before).toMatchObject({ needsHuman: false, sources: [{ externalId: 'printing-2sided' }, {}, {}] });
    expect(await ask('keyboard-layouts')).toEqual(before);
  });
});
