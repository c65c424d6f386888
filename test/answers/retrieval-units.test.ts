import { describe, expect, it } from 'vitest';
import { humanIntent } from '../../src/answers/retrieval/intents.js';
import { boundedDamerau, KnowledgeIndex, prepareArticle, splitPassages } from '../../src/answers/retrieval/knowledge-index.js';
import { buildQuery, looksLikeFollowUp, retrieve } from '../../src/answers/retrieval/retrieve.js';
import { foldPhrases } from '../../src/answers/retrieval/synonyms.js';
import { terms } from '../../src/answers/retrieval/text.js';

const articles = [
  { externalId: 'pw', title: 'Reset your password', body: 'Open the sign-in page and click Forgot password. A reset link arrives by e-mail within minutes.' },
  { externalId: 'inv', title: 'Download an invoice', body: 'Invoices are under Settings > Billing. Click an invoice to download it as a PDF.' },
  { externalId: 'cal', title: 'Calendar synchronization', body: 'Connect Google Calendar under Integrations. Events sync every five minutes.' },
].map((a, i) => prepareArticle({ id: i + 1, ...a, url: null }));
const index = new KnowledgeIndex(articles);
const top = (message: string, context?: string[]) => retrieve(index, { message, context }).candidates[0]?.article.doc.externalId;

describe('text and index', () => {
  it('stems, drops stop words and folds accents', () => {
    expect(terms('How do I reset my Passwords?')).toEqual(['reset', 'password']);
    expect(terms('Café invoices')).toEqual(['cafe', 'invoic']);
  });

  it('folds "log in" / "sign in" into one word', () => {
    expect(foldPhrases('I cannot sign in')).toBe('i cannot login');
  });

  it('counts edits with transpositions and gives up past the bound', () => {
    expect(boundedDamerau('pasword', 'password', 1)).toBe(1);
    expect(boundedDamerau('invoice', 'invocie', 1)).toBe(1);
    expect(boundedDamerau('calendar', 'banana', 2)).toBeGreaterThan(2);
  });

  it('ranks by title and body, corrects typos and uses synonyms', () => {
    expect(top('forgot my password')).toBe('pw');
    expect(top('forgot my pasword')).toBe('pw');
    expect(top('where is my bill')).toBe('inv');
    expect(top('calender sync is broken')).toBe('cal');
  });

  it('splits long bodies into passages, keeping headings with their paragraph', () => {
    const body = ['Heading', 'word '.repeat(80).trim(), 'Second', 'word '.repeat(80).trim()].join('\n\n');
    const passages = splitPassages(body);
    expect(passages).toHaveLength(2);
    expect(passages[0]!.startsWith('Heading\n')).toBe(true);
  });

  it('measures how much of the message the knowledge has never seen', () => {
    expect(buildQuery(index, { message: 'gym membership renewal' }).unknownShare).toBeGreaterThan(0.5);
    expect(buildQuery(index, { message: 'reset password' }).unknownShare).toBe(0);
  });

  it('reads follow-ups with the thread: the earlier message adds its terms', () => {
    expect(looksLikeFollowUp('and as a PDF?')).toBe(true);
    expect(looksLikeFollowUp('How do I connect my Google Calendar to the app?')).toBe(false);
    expect(top('can i get it as a pdf', ['where do I find my invoices'])).toBe('inv');
  });
});

describe('human intents', () => {
  it.each([
    ['can I talk to a human please', 'human_requested'],
    ['I want to speak to a real person', 'human_requested'],
    ['agent', 'human_requested'],
    ['you charged me twice this month', 'account_action'],
    ['I need a refund for last month', 'account_action'],
    ['please delete all my personal data under GDPR', 'account_action'],
    ['my account was hacked', 'account_action'],
    ['how do I reset my password', null],
    ['how do I add a person to my project', null],
  ])('%s → %s', (message, intent) => {
    expect(humanIntent(message)).toBe(intent);
  });
});
