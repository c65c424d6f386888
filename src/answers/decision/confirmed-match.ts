import { isCommonEnglish, partOfSpeech } from '../retrieval/english.js';
import { foldPhrases, synonymsOf } from '../retrieval/synonyms.js';
import { contentWords, stemWord } from '../retrieval/text.js';

/**
 * The rule by which a message is "the same" as one staff confirmed (see confirmed-answers.ts), fitted with
 * `npx tsx eval/confirmed-match.ts` on the eval bases (set A's tune half with set C, GNOME, Python; never set A's
 * test half nor set B); the figures are in eval/RESULTS.md ("Confirmed answers: the matching rule") and docs/answers.md.
 *
 * Terms: the stems of the content words, as a set, a misspelt word read as retrieval reads it (the knowledge's word
 * nearest in spelling: "pasword" is "password"). A confirmed answer is used when the message has the same terms, or
 * when the confirmed article is the one the message's own ranking (with the confirmed phrasings) puts first, its own
 * text sharing a word with the message, and either their Jaccard ≥ ANSWER_JACCARD with every term the message adds a
 * word of the knowledge or of the article's confirmed messages, or Jaccard ≥ STORY_JACCARD with the others it adds
 * all story words (English, not most often nouns: "stuck", "already"; see storyTerms). Two folds, the product's way
 * (any confirmation of the first article counts), right of 64 / wrong / out-of-scope answered, set A (+C) · GNOME ·
 * Python (GNOME and Python ask about each article about once: they measure only what must not match):
 * - the rule before (plain terms, known words of the knowledge only, 0.20): 6 / 0 / 0 · 0 / 0 / 0 · 0 / 0 / 0;
 * - typos read as retrieval reads them: 13 / 0 / 0; and words of the article's confirmed messages known: 15 / 0 / 0
 *   (at 0.10: 18 / 1 / 2, Python 1 wrong);
 * - and story words at 0.30 (this rule): 16 / 0 / 0; story words at the one threshold 0.20: 17 / 1 / 0, GNOME 2
 *   out-of-scope ("Zoom says screen sharing isn't supported …"); at 0.25, 1 wrong;
 * - without "its own text shares a word" below a Jaccard of 0.40: 17 / 0 / 0, kept out: a long confirmed message
 *   ("restore backup dropbox discount coupon … gift card", confirmed for the Android article) made "How do I restore
 *   a backup from Dropbox?" answered from an article that says nothing of it (test/answers/turn-feedback.test.ts), and a
 *   shorter one would pass 0.40;
 * - idf weights, synonym groups as one term, the overlap coefficient, common-term counts: none above this rule with no wrong.
 * A confirmed hand-off has no article to rank: it takes a plain threshold (HANDOFF_JACCARD) with added words of the
 * knowledge only, and the message must hold every term of the confirmed one (matchScore's `all`). The sentence
 * vectors' cosine did worse than words at every threshold (--vectors: ≥ 0.85, 4 right and 4 wrong on Python).
 */
export const ANSWER_JACCARD = 0.2;
export const STORY_JACCARD = 0.3;
export const HANDOFF_JACCARD = 0.35;

/** A stem as its general synonym group's (the alphabetically first), so "bill" and "invoice" are one term: measured by eval/confirmed-match.ts, not used by the rule. */
function canonical(stem: string): string {
  let out = stem;
  for (const s of synonymsOf(stem)) if (s < out) out = s;
  return out;
}

/** What matchTerms needs of the knowledge to read a misspelt word as retrieval does. */
export interface Speller {
  has(term: string): boolean;
  /** The knowledge's word a misspelt one most likely meant, as a stem (KnowledgeIndex.correct). */
  correct(word: string): string | null;
}

/**
 * A message's normalized terms: stems of its content words (phrases folded as retrieval folds them), plain or as their
 * synonym group's. With `index`, a word that is neither the knowledge's nor common English is read as the knowledge's
 * word nearest in spelling, as retrieval reads it ("pasword", "encripted"): a confirmed message and a message with a
 * typo in either then share that term.
 */
export function matchTerms(text: string, { index, synonyms = false }: { index?: Speller | undefined; synonyms?: boolean } = {}): Set<string> {
  const stems = contentWords(foldPhrases(text)).map((word) => {
    const stem = stemWord(word);
    if (!index || index.has(stem) || isCommonEnglish(word)) return stem;
    return index.correct(word) ?? stem;
  });
  return new Set(synonyms ? stems.map(canonical) : stems);
}

/**
 * The stems of a message's words that are English but most often not nouns ("stuck", "already", "accidentally"): they
 * tell the customer's situation, where a noun the knowledge lacks ("gym", "router") or a word no dictionary has
 * ("Gmail") names another subject (retrieval reads unknown nouns the same way).
 */
export function storyTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of contentWords(foldPhrases(text))) {
    const pos = partOfSpeech(word);
    if (pos !== null && pos !== 'noun') out.add(stemWord(word));
  }
  return out;
}

/**
 * How near a message is to a confirmed answer's message (0: not near enough): at ANSWER_JACCARD when every term the
 * message adds is a word of the knowledge or of the article's confirmed messages (`known`); at STORY_JACCARD when the
 * others it adds are all story words (storyTerms). The caller still requires the article first in the message's ranking.
 */
export function answerScore(message: ReadonlySet<string>, story: ReadonlySet<string>, confirmed: ReadonlySet<string>, known: (term: string) => boolean): number {
  return matchScore(message, confirmed, known, ANSWER_JACCARD) || matchScore(message, confirmed, (t) => known(t) || story.has(t), STORY_JACCARD);
}

/** Σ weight(a ∩ b) / Σ weight(a ∪ b); 0 when either is empty (a message of stop words alone matches nothing). Unweighted: Jaccard. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>, weight: (term: string) => number = () => 1): number {
  if (!a.size || !b.size) return 0;
  let common = 0;
  let union = 0;
  for (const t of a) {
    const w = weight(t);
    union += w;
    if (b.has(t)) common += w;
  }
  for (const t of b) if (!a.has(t)) union += weight(t);
  return union > 0 ? common / union : 0;
}

/**
 * How near a message is to a confirmed one under the rule, or 0 below `threshold` or when the message adds a term the
 * knowledge does not know: "reset my Gmail password" is not "reset my password" once Gmail is nowhere in it. With
 * `all` (a confirmed hand-off), also 0 unless the message holds every term of the confirmed one: a hand-off's words
 * are what made it one, so "list comprehensions" is not the confirmed hand-off "How do I do list comprehensions in
 * JavaScript?" (matched, it cost Python's simulated labels 0.875 → 0.858 balanced, eval/labels.ts). Not for answers: a
 * confirmed answer's message mostly has words the knowledge lacks (that is why it was handed over), and even requiring
 * those alone kept 2 of set A's 11 right matches (leave one out).
 */
export function matchScore(message: ReadonlySet<string>, confirmed: ReadonlySet<string>, known: (term: string) => boolean, threshold: number, weight?: (term: string) => number, all = false): number {
  const j = jaccard(message, confirmed, weight);
  if (j < threshold) return 0;
  for (const t of message) if (!confirmed.has(t) && !known(t)) return 0;
  if (all) for (const t of confirmed) if (!message.has(t)) return 0;
  return j;
}
