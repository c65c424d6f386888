import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../src/answers/compose-answer.js';
import { OfflineGenerator } from '../../src/answers/generators/offline-generator.js';
import { probability } from '../../src/answers/decision/decide.js';
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
  const thread = ['how do I export my invoices to PDF?'];

  it('is not answered from the earlier answer\'s article on the strength of the earlier words', async () => {
    const first = await answer(thread[0]!);
    expect(first.needsHuman).toBe(false);
    expect(first.sources[0]?.externalId).toBe('inv-pdf');
    // "secure" is nowhere in the export article: the earlier message's words made it look covered (p 0.85 before).
    for (const message of ['is it secure?', 'who made this feature?']) {
      expect(await answer(message, thread), message).toMatchObject({ needsHuman: true, reason: 'no_knowledge' });
    }
    expect(await answer('can you do it for me?', thread)).toMatchObject({ needsHuman: true, reason: 'human_requested' });
  });

  it('is read with the thread when its own words are in the article', async () => {
    const csv = await answer('and as CSV?', thread);
    expect(csv.needsHuman).toBe(false);
    expect(csv.sources[0]?.externalId).toBe('inv-csv');
  });

  it('is not answered again from the same article when it says the answer did not help', async () => {
    // No word of its own to check the article against: before, the thread alone answered each from inv-pdf again.
    for (const message of ['no', "no, that's not it", 'still the same', 'i did that', 'why not?', 'how? it didn’t work', 'what?']) {
      expect(await answer(message, thread), message).toMatchObject({ needsHuman: true });
    }
  });

  it('has only the thread to go on when it asks for more without words of its own', async () => {
    expect(await answer('how?')).toMatchObject({ needsHuman: true });
    for (const message of ['how?', 'where is it?', 'how do I do that?', 'and then?']) {
      const more = await answer(message, thread);
      expect(more.needsHuman, message).toBe(false);
      expect(more.sources[0]?.externalId, message).toBe('inv-pdf');
    }
  });

  it('keeps what the thread makes of a follow-up whose key word the article has (GNOME\'s help)', async () => {
    const gnome = new KnowledgeIndex(
      (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../eval/kb-gnome/articles.json'), 'utf8')) as { externalId: string; title: string; body: string }[]).map((a, i) =>
        prepareArticle({ id: i + 1, ...a, url: null }),
      ),
    );
    const ask = (thread: string[]) =>
      composeAnswer({ index: gnome, message: 'does that flip the touchpad as well?', thread: thread.map((question) => ({ question, reply: '' })), agent, generator: new OfflineGenerator() });
    expect(await ask([])).toMatchObject({ needsHuman: true });
    const withThread = await ask(['How do I set my mouse up for left-hand use?']);
    expect(withThread.needsHuman).toBe(false);
    expect(withThread.sources[0]?.externalId).toBe('mouse-lefthanded');
  });
});

describe('a message made only of pleasantries', () => {
  it('gets a courtesy line, no sources and no person, and looks nothing up', async () => {
    for (const message of ['thanks, that worked!', 'hi!', 'ok great, thank you so much', 'bye']) {
      const reply = await answer(message, ['how do I export my invoices to PDF?']);
      expect(reply, message).toMatchObject({ needsHuman: false, sources: [], confidence: 'high', reason: null, ranking: [], features: null });
      expect(reply.message, message).not.toBe('');
    }
  });

  it('stays with the person in a conversation already handed over, and is read as a question with an attachment', async () => {
    const waiting = await composeAnswer({ index, message: 'thanks!', thread: [], agent, generator: new OfflineGenerator(), conversationNeedsHuman: true });
    expect(waiting).toMatchObject({ needsHuman: true, reason: 'earlier_turn', confidence: 'low', sources: [] });
    const attached = await composeAnswer({ index, message: 'thanks!', thread: [], agent, generator: new OfflineGenerator(), attachmentText: 'Error E-4417 when syncing calendars' });
    expect(attached.sources[0]?.externalId).toBe('e4417');
    // Any file counts, even one nothing could be read from (a .docx): a person should see it.
    const file = await composeAnswer({ index, message: 'thanks!', thread: [], agent, generator: new OfflineGenerator(), attachmentCount: 1 });
    expect(file.reason).not.toBeNull();
  });
});
