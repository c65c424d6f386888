import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../src/answers/compose-answer.js';
import { DEFAULT_MODEL } from '../../src/answers/decision/decide.js';
import { whyHuman } from '../../src/answers/decision/explain.js';
import { OfflineGenerator } from '../../src/answers/generators/offline-generator.js';
import { KnowledgeIndex, prepareArticle } from '../../src/answers/retrieval/knowledge-index.js';
import { retrieve } from '../../src/answers/retrieval/retrieve.js';

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

function answer(vectors: Record<string, Float32Array>) {
  const byId = vectorsOf(vectors);
  const semantic = { vectors: byId, embed: async (texts: string[]) => texts.map(() => unit([0, 1])) };
  return composeAnswer({ index, message, thread: [], agent, generator: new OfflineGenerator(), model: sure, semantic });
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

  it('without vectors, ranks and answers by words as before', async () => {
    const turn = await composeAnswer({ index, message, thread: [], agent, generator: new OfflineGenerator(), model: sure });
    expect(turn.ranking[0]).toBe('words');
    expect(turn.needsHuman).toBe(false);
  });
});
