import { foldPhrases, synonymsOf } from '../retrieval/synonyms.js';
import { terms } from '../retrieval/text.js';

/**
 * The rule by which a message is "the same" as one staff confirmed (see confirmed-answers.ts), fitted with
 * `npx tsx eval/confirmed-match.ts` on the eval bases (set A's tune half with set C, GNOME, Python; never set A's
 * test half nor set B); the figures are in eval/RESULTS.md ("Confirmed answers: the matching rule") and docs/answers.md.
 *
 * Terms: the stems of the content words, as a set (synonym groups as one term and idf weights both measured worse).
 * A confirmed answer is used when the message has the same terms, or when their Jaccard ≥ ANSWER_JACCARD, every term
 * the message adds is a word of the knowledge, and the confirmed article is the one the message's own ranking (with
 * the confirmed phrasings) puts first, its own text sharing a word with the message. Two folds, right / wrong /
 * out-of-scope matched, set A (+C) · GNOME · Python:
 * - that rule at 0.20: 6 / 0 / 0 · 0 / 0 / 0 · 0 / 0 / 0 (at 0.10 the first wrong: 7 / 1 / 0, Python 1 wrong);
 * - without "its own text shares a word": 7 / 0 / 0 at 0.20, but a long confirmed message ("restore backup dropbox
 *   discount coupon … gift card", confirmed for the Android article) then made "How do I restore a backup from
 *   Dropbox?" answered from an article that says nothing of it (test/answers/turn-feedback.test.ts);
 * - without the ranking at 0.20: 7 / 12 / 4 · 0 / 4 / 1 · 0 / 13 / 2; it needs 0.35 to make no wrong answer
 *   (5 / 0 / 0, Python still 1 out-of-scope: "list comprehensions in JavaScript?").
 * A confirmed hand-off has no article to rank: it takes that plain threshold (HANDOFF_JACCARD), and the message must
 * hold every term of the confirmed one (matchScore's `all`). The sentence
 * vectors' cosine did worse than words at every threshold (--vectors: ≥ 0.85, 4 right and 4 wrong on Python).
 */
export const ANSWER_JACCARD = 0.2;
export const HANDOFF_JACCARD = 0.35;

/** A stem as its general synonym group's (the alphabetically first), so "bill" and "invoice" are one term: measured by eval/confirmed-match.ts, not used by the rule. */
function canonical(stem: string): string {
  let out = stem;
  for (const s of synonymsOf(stem)) if (s < out) out = s;
  return out;
}

/** A message's normalized terms: stems of its content words (phrases folded as retrieval folds them), plain or as their synonym group's. */
export function matchTerms(text: string, synonyms = false): Set<string> {
  const stems = terms(foldPhrases(text));
  return new Set(synonyms ? stems.map(canonical) : stems);
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
