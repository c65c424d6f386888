/**
 * `npx tsx eval/verdict-transfer.ts`: two ways a verdict could carry to messages about other articles (issue #47, the
 * labels criterion on GNOME and Python), measured as eval/labels.ts measures learning: the verdicts it simulates (up to
 * 40 on the tune half, 5 draws), each base's test half before → after, the decision fitted without the base. Neither is
 * in the product; the figures and why are in eval/RESULTS.md.
 * 1. Neighbours in meaning, after today's learning: a test first message's nearest verdict messages (first messages,
 *    sentence vectors' cosine ≥ τ; the nearest one, or most of the nearest three) decide. When they are for a person
 *    (the verdict says so, as the decision reads it: learning/verdict-label.ts `answerable`), an answered message is
 *    handed over ("handover"); when they are answerable, a message handed over for low probability with an article to
 *    cite is answered ("answer"); or both. Also with the verdicts that corrected the agent alone.
 * 2. The blend's share of meaning (QueryParams.semanticWeight) per workspace: each base's halves at several shares,
 *    the global decision, all of each half's messages: whether the share best on the tune half (where verdicts would
 *    choose it) is best on the test half.
 */
import { semanticText } from '../src/answers/compose-answer.js';
import { DEFAULT_QUERY } from '../src/answers/retrieval/retrieve.js';
import { loadBases, type Question } from './bases.js';
import { learnFromLabels } from './labels.js';
import { answerable } from '../src/answers/learning/verdict-label.js';
import { fit, ours } from './loko.js';
import { type Metrics, metrics, type Outcome } from './metrics.js';
import { cachedVector } from './vectors.js';

const DRAWS = 5;
const TAUS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85];
const MODES = ['handover', 'answer', 'both'] as const;
const SHARES = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7];

const vectorOf = (q: Question) => cachedVector(semanticText(q.turns[0]!, q.turns.length === 1 ? q.attachmentText : undefined))!;
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const line = (m: Metrics) =>
  `balanced ${m.needsHumanBalanced.toFixed(3)}, false-source ${m.falseSource.toFixed(3)}, right / wrong ${m.answeredRight.toFixed(1)} / ${m.answeredWrong.toFixed(1)}, recall@1 ${m.recall1.toFixed(3)}`;
const mean = (runs: Metrics[]) =>
  Object.fromEntries(Object.keys(runs[0]!).map((k) => [k, runs.reduce((s, m) => s + (m[k as keyof Metrics] as number), 0) / runs.length])) as unknown as Metrics;

interface Neighbour {
  v: Float32Array;
  /** What the verdict says of the message: the knowledge answers it (else it is for a person). */
  answerable: boolean;
}

/**
 * The outcome as the neighbour rule would change it: the verdict messages at cosine ≥ tau, the nearest `k` of them;
 * when most of those are for a person, an answered first message is handed over ("handover"); when most are
 * answerable, a first message handed over for low probability, with an article to cite, is answered ("answer").
 */
function byNeighbour(o: Outcome, neighbours: Neighbour[], tau: number, mode: (typeof MODES)[number], k = 1): Outcome {
  if (o.q.turns.length !== 1) return o;
  const v = vectorOf(o.q);
  const near = neighbours.map((n) => ({ c: cosine(v, n.v), answerable: n.answerable })).filter((n) => n.c >= tau).sort((a, b) => b.c - a.c).slice(0, k);
  if (!near.length) return o;
  const answerable = near.filter((n) => n.answerable).length * 2 > near.length;
  const forPerson = near.filter((n) => !n.answerable).length * 2 > near.length;
  if (forPerson && !o.needsHuman && mode !== 'answer') return { ...o, needsHuman: true };
  if (answerable && o.needsHuman && o.reason === 'no_knowledge' && o.sources.length && mode !== 'handover') return { ...o, needsHuman: false };
  return o;
}

const bases = await loadBases();
for (const base of bases) {
  const model = fit(bases.filter((b) => b !== base));
  const test = base.questions.filter((q) => q.half === 'test');
  console.log(`\n${base.name}, test half, no labels: ${line(metrics(await Promise.all(test.map((q) => ours(base, q, model)))))}`);
  const runs = new Map<string, Metrics[]>();
  for (let seed = 1; seed <= DRAWS; seed++) {
    const { model: learnt, index, confirmations, verdicts } = await learnFromLabels(base, model, 40, seed);
    const outcomes = await Promise.all(test.map((q) => ours({ ...base, index }, q, learnt, undefined, confirmations)));
    // The verdicts given on first messages (a handed-over message with no article to name gets none), as the decision reads them.
    const given = verdicts.filter((x) => x.q.turns.length === 1);
    const all = given.map((x) => ({ v: vectorOf(x.q), answerable: answerable(x.verdict, { needsHuman: x.handedOver, reason: null }) }));
    // Only the verdicts that corrected the agent: "should not have answered" on an answer, "should have answered" on a hand-off.
    const corrections = given.filter((x) => x.verdict === 'needs_human' || x.verdict === 'should_answer').map((x) => ({ v: vectorOf(x.q), answerable: x.verdict === 'should_answer' }));
    const add = (key: string, m: Metrics) => runs.set(key, [...(runs.get(key) ?? []), m]);
    add('after 40 labels (as the product learns)', metrics(outcomes));
    for (const mode of MODES) for (const tau of TAUS) add(`and the nearest verdict message in meaning, ${mode}, cosine ≥ ${tau}`, metrics(outcomes.map((o) => byNeighbour(o, all, tau, mode))));
    for (const tau of TAUS) add(`and the nearest 3 verdict messages (most of them), handover, cosine ≥ ${tau}`, metrics(outcomes.map((o) => byNeighbour(o, all, tau, 'handover', 3))));
    for (const tau of TAUS) add(`and the nearest correcting verdict, both, cosine ≥ ${tau}`, metrics(outcomes.map((o) => byNeighbour(o, corrections, tau, 'both'))));
  }
  for (const [key, ms] of runs) console.log(`  ${key}: ${line(mean(ms))}`);
  for (const half of ['tune', 'test'] as const) {
    const qs = base.questions.filter((q) => q.half === half);
    for (const share of SHARES) {
      const m = metrics(await Promise.all(qs.map((q) => ours(base, q, model, { ...DEFAULT_QUERY, semanticWeight: share }))));
      console.log(`  ${half} half, no labels, meaning's share ${share}${share === DEFAULT_QUERY.semanticWeight ? ' (the product\'s)' : ''}: ${line(m)}`);
    }
  }
}
