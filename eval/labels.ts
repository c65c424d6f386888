/**
 * Learning from staff labels, simulated (issue #26 item 7): on each base's tune half, staff mark `n`
 * of the agent's answers (seeded draws): right, wrong with the right article, or should have gone to a
 * person. As on the server, a "wrong, it is X" verdict teaches "answer" only where X ranks first with the
 * phrasings confirmed before it (else it only adds the phrasing). The decision is refitted from them as on the server (checkedRefit: refitDecision, shrunk toward the model fitted without
 * the base, kept only when better on the labels held out of it) and the confirmed message→article pairs become phrasings of their articles; both are then
 * measured on the base's test half, which no label came from, against the same half without labels.
 */
import { type DecisionModel } from '../src/answers/decision/decide.js';
import { checkedRefit, type Sample } from '../src/answers/learning/fit.js';
import { answerable, handedOver, undecided, type Verdict } from '../src/answers/learning/verdict-label.js';
import { KnowledgeIndex, prepareArticle } from '../src/answers/retrieval/knowledge-index.js';
import { DEFAULT_QUERY, retrieve } from '../src/answers/retrieval/retrieve.js';
import type { Base, Question } from './bases.js';
import { EVAL_AGENT, ours } from './loko.js';
import type { Confirmation } from '../src/answers/decision/confirmed-answers.js';
import { matchTerms } from '../src/answers/decision/confirmed-match.js';
import { type Metrics, metrics } from './metrics.js';

/** Whether the test half is measured with the confirmed answers the labels made (issue #47 item 2); `--no-confirmed` measures without. */
const CONFIRMED = !process.argv.includes('--no-confirmed');

/** The simulation's seeded draw (the verdicts' turns in the order staff meet them). */
function shuffled<T>(items: T[], seed: number): T[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  return items.map((item) => ({ item, k: next() })).sort((a, b) => a.k - b.k).map((x) => x.item);
}

/** The `n` tune-half messages staff give verdicts on in draw `seed`. */
const labelPool = (base: Base, n: number, seed: number) => shuffled(base.questions.filter((q) => q.half === 'tune'), seed).slice(0, n);

/** The base's index with these phrasings added to their articles (by externalId). */
export function withPhrasings(base: Base, phrasings: Map<string, string[]>): KnowledgeIndex {
  return new KnowledgeIndex(base.index.articles.map((a) => prepareArticle(a.doc, phrasings.get(a.doc.externalId) ?? [])));
}

export interface Labelled {
  model: DecisionModel;
  index: KnowledgeIndex;
  /** The confirmed answers the verdicts made (decision/confirmed-answers.ts), the latest first. */
  confirmations: Confirmation[];
  /** Every verdict given, in order: the message, the verdict, and whether the agent had handed the turn over. */
  verdicts: { q: Question; verdict: Verdict; handedOver: boolean }[];
}

/** What `n` staff labels on the tune half teach: the refitted decision and the index with the confirmed phrasings. */
/** The server's refit: the new fit only when better on held-out labels than the model in use (here the global one). */
const serverRefit = (global: DecisionModel, samples: Sample[], shrinkage?: number) => checkedRefit(global, global, samples, shrinkage).model;

export async function learnFromLabels(base: Base, global: DecisionModel, n: number, seed: number, shrinkage?: number, refit = serverRefit): Promise<Labelled> {
  const pool = labelPool(base, n, seed);
  const samples: Sample[] = [];
  const phrasings = new Map<string, string[]>();
  const confirmations: Confirmation[] = [];
  const verdicts: Labelled['verdicts'] = [];
  // The knowledge as it is when each verdict is given: the phrasings confirmed before it included (as the server re-ranks).
  let current: KnowledgeIndex | null = base.index;
  const now = () => (current ??= withPhrasings(base, phrasings));
  for (const q of pool) {
    const message = q.turns.at(-1)!;
    const answered = await ours(base, q, global);
    // The turn as the server keeps it: what the agent did, why, and the features it was decided on.
    const turn = { needsHuman: answered.needsHuman, reason: answered.reason ?? null, features: answered.features ?? null };
    // The careful staff member's verdict: on a message for a person, "needs_human" on an answer and "right" on a hand-off;
    // on an answerable one, "right" (or, on a hand-off, "should_answer") when the first source is right, else "wrong, it is …".
    const cited = q.expected.includes(answered.sources[0] ?? '');
    let verdict: Verdict;
    if (q.needsHuman) verdict = handedOver(turn) ? 'right' : 'needs_human';
    else if (!q.expected.length) {
      if (handedOver(turn)) continue;
      verdict = 'right';
    } else verdict = cited ? (handedOver(turn) ? 'should_answer' : 'right') : 'wrong';
    verdicts.push({ q, verdict, handedOver: handedOver(turn) });
    const article = q.expected.length ? (cited ? answered.sources[0]! : q.expected[0]!) : null;
    // Whether it teaches the decision, by the server's rules (learning/verdict-label.ts): "wrong, it is X" counts only when X
    // ranks first for the message with the knowledge as it is now (issue #32 item 7), as learning/turn-feedback.ts checks it.
    const counts = !undecided(turn) && (verdict !== 'wrong' || retrieve(now(), { message }, DEFAULT_QUERY, 1).candidates[0]?.article.doc.externalId === article);
    if (counts) samples.push({ x: turn.features!, y: answerable(verdict, turn) ? 1 : 0 });
    if (article && !q.needsHuman) {
      phrasings.set(article, [...(phrasings.get(article) ?? []), message]);
      current = null;
    }
    // A verdict naming the article confirms an answer; "should have gone to a person" confirms a hand-off (as the server's).
    const confirmedArticle = article && !q.needsHuman ? base.index.articles.find((a) => a.doc.externalId === article)?.doc : undefined;
    // As on the server, only a conversation's first message is confirmed.
    if (q.turns.length === 1 && (confirmedArticle || verdict === 'needs_human')) {
      const c = confirmedArticle ? { id: confirmedArticle.id, externalId: confirmedArticle.externalId, title: confirmedArticle.title } : null;
      confirmations.unshift({ turnId: confirmations.length + 1, conversationId: q.id, agentId: EVAL_AGENT, question: message, terms: matchTerms(message, { index: base.index }), verdict, article: c, by: null, at: new Date(), held: null });
    }
  }
  return { model: refit(global, samples, shrinkage), index: withPhrasings(base, phrasings), confirmations, verdicts };
}

/** The test half's metrics as shipped (the global model) and after `n` labels, averaged over `seeds` draws. */
export async function labelEffect(base: Base, global: DecisionModel, n: number, seeds = 5, shrinkage?: number, refit = serverRefit): Promise<{ before: Metrics; after: Metrics }> {
  const test = base.questions.filter((q) => q.half === 'test');
  const measure = async (model: DecisionModel, index: KnowledgeIndex, confirmations: Confirmation[] = []) =>
    metrics(await Promise.all(test.map((q: Question) => ours({ ...base, index }, q, model, undefined, confirmations))));
  const before = await measure(global, base.index);
  const runs: Metrics[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { model, index, confirmations } = await learnFromLabels(base, global, n, seed, shrinkage, refit);
    runs.push(await measure(model, index, CONFIRMED ? confirmations : []));
  }
  const after = Object.fromEntries(
    Object.keys(before).map((k) => [k, runs.reduce((sum, m) => sum + (m[k as keyof Metrics] as number), 0) / runs.length]),
  ) as unknown as Metrics;
  return { before, after };
}
