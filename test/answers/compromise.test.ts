import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../src/answers/compose-answer.js';
import { DEFAULT_MODEL, probability } from '../../src/answers/decision/decide.js';
import { whyHuman } from '../../src/answers/decision/explain.js';
import { OfflineGenerator } from '../../src/answers/generators/offline-generator.js';
import { KnowledgeIndex, prepareArticle } from '../../src/answers/retrieval/knowledge-index.js';
import { retrieve, threadReading } from '../../src/answers/retrieval/retrieve.js';

/** A unit vector along `axis` of 4, or between two axes. */
const unit = (...parts: [number, number][]) => {
  const v = new Float32Array(4);
  for (const [axis, weight] of parts) v[axis] = weight;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

const ARTICLES = [
  // First by the message's words.
  { id: 1, externalId: 'words', title: 'Export invoices to a CSV file', body: 'Export invoices to a CSV file from the Invoices list: click Export, choose CSV file.' },
  // First by its meaning (the vectors below): shares no word with the message.
  { id: 2, externalId: 'meaning', title: 'Spreadsheet downloads for accountants', body: 'Accountants get spreadsheets of everything billed from the Reports page.' },
  // Near enough by both to be blended ahead of each.
  { id: 3, externalId: 'between', title: 'Invoices', body: 'Create, send and export invoices. Invoices list every client payment.' },
];
const index = new KnowledgeIndex(ARTICLES.map((a) => prepareArticle({ ...a, url: null })));
const agent = { name: 'Helper', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };
// Sure of whatever ranks first: only the rule under test can hand the message over.
const sure = { ...DEFAULT_MODEL, bias: 8, threshold: 0.5 };
const message = 'export invoices csv file';

const vectorsOf = (vectors: Record<string, Float32Array>) => new Map(ARTICLES.map((a) => [a.id, [vectors[a.externalId]!]]));

/** The first article by the message's words alone, and by its meaning alone, among those blended. */
function leaders(vectors: Record<string, Float32Array>) {
  const { candidates } = retrieve(index, { message }, undefined, 10, { vector: unit([0, 1]), vectors: vectorsOf(vectors) });
  const best = (key: 'lexical' | 'cosine') => [...candidates].sort((a, b) => b[key] - a[key])[0]!.article.doc.externalId;
  return { words: best('lexical'), meaning: best('cosine') };
}

function answer(vectors: Record<string, Float32Array | undefined>, on = index) {
  // An article left out has no vectors yet (just imported or edited).
  const byId = new Map(ARTICLES.filter((a) => vectors[a.externalId]).map((a) => [a.id, [vectors[a.externalId]!]]));
  const semantic = { vectors: byId, embed: async (texts: string[]) => texts.map(() => unit([0, 1])) };
  return composeAnswer({ index: on, message, thread: [], agent, generator: new OfflineGenerator(), model: sure, semantic });
}

describe('an article ranked first by neither the words nor the meaning', () => {
  it('is not answered from, however sure the decision: the turn says why, and cites it for the person taking over', async () => {
    const vectors = { words: unit([3, 1]), meaning: unit([0, 1]), between: unit([0, 0.95], [3, 0.31]) };
    expect(leaders(vectors)).toEqual({ words: 'words', meaning: 'meaning' });
    const turn = await answer(vectors);
    expect(turn.ranking[0]).toBe('between');
    expect(turn.needsHuman).toBe(true);
    expect(turn.reason).toBe('unclear_match');
    expect(turn.sources[0]?.externalId).toBe('between');
    expect(whyHuman(turn.reason, turn.sources)).toMatch(/^The message's words point to one article and its meaning to another; "Invoices", ranked first between them/);
  });

  it('is answered from when it is also first by the words, or by the meaning', async () => {
    // The words' first article is also blended first (its meaning far from the message's: it leads on words alone).
    const byWords = await answer({ words: unit([0, 0.5], [3, 0.87]), meaning: unit([0, 1]), between: unit([0, 0.3], [3, 0.95]) });
    expect(byWords.ranking[0]).toBe('words');
    expect(byWords.needsHuman).toBe(false);
    // The article nearest in meaning is also blended first.
    const byMeaning = await answer({ words: unit([3, 1]), meaning: unit([3, 1]), between: unit([0, 1]) });
    expect(byMeaning.ranking[0]).toBe('between');
    expect(byMeaning.needsHuman).toBe(false);
    expect(byMeaning.reason).toBeNull();
  });

  it('is answered from once staff confirmed it for a message worded like this one', async () => {
    const vectors = { words: unit([3, 1]), meaning: unit([0, 1]), between: unit([0, 0.95], [3, 0.31]) };
    // A "should have answered" verdict adds the message as a phrasing of the article it names.
    const confirmed = new KnowledgeIndex(ARTICLES.map((a) => prepareArticle({ ...a, url: null }, a.externalId === 'between' ? [message] : [])));
    const turn = await answer(vectors, confirmed);
    expect(turn.ranking[0]).toBe('between');
    expect(turn.needsHuman).toBe(false);
  });

  it('compares meaning only among articles that have vectors (an import under way), and never flags one without', async () => {
    // Lexical shares for this message: "words" .447, "between" .367, "meaning" .263.
    const ask = (vectors: Map<number, Float32Array[]>) =>
      composeAnswer({ index, message: 'how do I export invoices', thread: [], agent, generator: new OfflineGenerator(), model: sure, semantic: { vectors, embed: async (t) => t.map(() => unit([0, 1])) } });
    /** A unit vector whose cosine to the message's is c. */
    const at = (c: number) => unit([0, c], [3, Math.sqrt(1 - c * c)]);
    // "between" has no vectors yet: it keeps its place by words (2nd), the two with vectors are blended into the
    // others ("meaning" ahead of "words"), and "meaning", first by its cosine, is answered from.
    const unmeasured = await ask(new Map([[1, [at(0.2)]], [2, [at(0.5)]]]));
    expect(unmeasured.ranking).toEqual(['meaning', 'between', 'words']);
    expect(unmeasured.reason).toBeNull();
    // "meaning" has none: its lexical share (.263) is not a cosine that "between" (.25) falls short of.
    const other = await ask(new Map([[1, [at(0.1)]], [3, [at(0.25)]]]));
    expect(other.ranking[0]).toBe('between');
    expect(other.reason).toBeNull();
    // With every article's vectors, "between" first by neither is flagged.
    const all = await ask(new Map([[1, [at(0.1)]], [2, [at(0.5)]], [3, [at(0.45)]]]));
    expect(all.ranking[0]).toBe('between');
    expect(all.reason).toBe('unclear_match');
  });

  it('hands over, instead of failing, when every article scores below zero (no word shared, opposite meanings)', async () => {
    const away = unit([0, -1], [3, 0.2]);
    const byId = new Map(ARTICLES.map((a) => [a.id, [away]]));
    const turn = await composeAnswer({ index, message: 'zzz qqq', thread: [], agent, generator: new OfflineGenerator(), model: sure, semantic: { vectors: byId, embed: async (t) => t.map(() => unit([0, 1])) } });
    expect(turn.needsHuman).toBe(true);
    expect(turn.sources).toEqual([]);
  });

  it('without vectors, ranks and answers by words as before', async () => {
    const turn = await composeAnswer({ index, message, thread: [], agent, generator: new OfflineGenerator(), model: sure });
    expect(turn.ranking[0]).toBe('words');
    expect(turn.needsHuman).toBe(false);
  });
});

describe('a follow-up decided by its reading with the message before it', () => {
  const THREAD_ARTICLES = [
    { id: 1, externalId: 'export', title: 'Export invoices to a CSV file', body: 'Export invoices to a CSV file from the Invoices list: click Export, choose CSV file. On tablets too.' },
    { id: 2, externalId: 'android', title: 'The Android app', body: 'The Android app works offline. Android phones work. ' },
    { id: 3, externalId: 'meaning', title: 'Spreadsheet downloads for accountants', body: 'Accountants get spreadsheets of everything billed from the Reports page.' },
    { id: 4, externalId: 'other', title: 'Billing plans', body: 'Plans and prices for teams.' },
  ];
  const threadIndex = new KnowledgeIndex(THREAD_ARTICLES.map((a) => prepareArticle({ ...a, url: null })));
  const vector = unit([0, 1]);
  const vectors = new Map<number, Float32Array[]>([[1, [unit([0, 0.6], [1, 0.8])]], [2, [unit([0, 0.1], [2, 1])]], [3, [unit([0, 0.75], [3, 0.66])]], [4, [unit([3, 1])]]]);
  const thread = [{ question: 'how do I export invoices', reply: 'Export invoices from the Invoices list.' }];
  const followUp = 'does it work on tablets with android?';

  it('is judged on that reading: its first article is first by words there, so it is answered', async () => {
    const input = { message: followUp, context: thread.map((t) => t.question) };
    const alone = retrieve(threadIndex, input, undefined, 10, { vector, vectors });
    const reading = threadReading(threadIndex, input, undefined, { vector, vectors })!;
    // The message's own reading is a compromise and unsure; the thread's is neither, and it decides.
    expect(alone.candidates[0]!.article.doc.externalId).toBe('export');
    expect(alone.compromise).toBe(true);
    expect(probability(alone.features)).toBeLessThan(DEFAULT_MODEL.threshold);
    expect(reading.compromise).toBe(false);
    expect(probability(reading.features)).toBeGreaterThan(DEFAULT_MODEL.threshold);
    const turn = await composeAnswer({ index: threadIndex, message: followUp, thread, agent, generator: new OfflineGenerator(), semantic: { vectors, embed: async (t) => t.map(() => vector) } });
    expect(turn.reason).toBeNull();
    expect(turn.needsHuman).toBe(false);
  });
});
