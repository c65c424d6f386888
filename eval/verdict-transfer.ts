/**
 * `npx tsx eval/verdict-transfer.ts`: two ways a verdict could carry to messages about other articles (issue #47, the
 * labels criterion on GNOME and Python), measured as eval/labels.ts measures learning: 40 verdicts on the tune half
 * (5 draws), each base's test half before → after, the decision fitted without the base. Neither is in the product;
 * the figures and why are in eval/RESULTS.md.
 * 1. Neighbours in meaning: after today's learning, a first message whose nearest verdict message (sentence vectors'
 *    cosine ≥ τ) was "should have gone to a person" is handed over ("handover"), or, handed over for low probability
 *    with an article to cite, is answered when its nearest was answerable ("answer"), or both.
 * 2. The blend's share of meaning (QueryParams.semanticWeight) per workspace: each base's halves at several shares,
 *    the global decision: whether the share best on the tune half (where verdicts would choose it) is best on the test half.
 */
import { semanticText } from '../src/answers/compose-answer.js';
import { DEFAULT_QUERY } from '../src/answers/retrieval/retrieve.js';
import { loadBases, type Question } from './bases.js';
import { labelPool, learnFromLabels } from './labels.js';
import { fit, ours } from './loko.js';
import { type Metrics, metrics, type Outcome } from './metrics.js';
import { cachedVector } from './vectors.js';

const DRAWS = 5;
const TAUS = [0.5, 0.6, 0.65, 0.7, 0.75, 0.8];
const MODES = ['handover', 'answer', 'both'] as const;
const SHARES = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7];

const vectorOf = (q: Question) => cachedVector(semanticText(q.turns[0]!, q.turns.length === 1 ? q.attachmentText : undefined))!;
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const line = (m: Metrics) =>
  `balanced ${m.needsHumanBalanced.toFixed(3)}, false-source ${m.falseSource.toFixed(3)}, right / wrong ${m.answeredRight.toFixed(1)} / ${m.answeredWrong.toFixed(1)}, recall@1 ${m.recall1.toFixed(3)}`;
const mean = (runs: Metrics[]) =>
  Object.fromEntries(Object.keys(runs[0]!).map((k) => [k, runs.reduce((s, m) => s + (m[k as keyof Metrics] as number), 0) / runs.length])) as unknown as Metrics;

/** The outcome as the neighbour rule would change it. */
function byNeighbour(o: Outcome, labelled: { v: Float32Array; answerable: boolean }[], tau: number, mode: (typeof MODES)[number]): Outcome {
  if (o.q.turns.length !== 1) return o;
  const v = vectorOf(o.q);
  let nearest = { c: -Infinity, answerable: false };
  for (const l of labelled) {
    const c = cosine(v, l.v);
    if (c > nearest.c) nearest = { c, answerable: l.answerable };
  }
  if (nearest.c < tau) return o;
  if (!nearest.answerable && !o.needsHuman && mode !== 'answer') return { ...o, needsHuman: true };
  if (nearest.answerable && o.needsHuman && o.reason === 'no_knowledge' && o.sources.length && mode !== 'handover') return { ...o, needsHuman: false };
  return o;
}

const bases = await loadBases();
for (const base of bases) {
  const model = fit(bases.filter((b) => b !== base));
  const test = base.questions.filter((q) => q.half === 'test');
  console.log(`\n${base.name}, test half, no labels: ${line(metrics(await Promise.all(test.map((q) => ours(base, q, model)))))}`);
  const runs = new Map<string, Metrics[]>();
  for (let seed = 1; seed <= DRAWS; seed++) {
    const { model: learnt, index, confirmations } = await learnFromLabels(base, model, 40, seed);
    const outcomes = await Promise.all(test.map((q) => ours({ ...base, index }, q, learnt, undefined, confirmations)));
    const labelled = labelPool(base, 40, seed).filter((q) => q.turns.length === 1).map((q) => ({ v: vectorOf(q), answerable: !q.needsHuman }));
    const add = (key: string, m: Metrics) => runs.set(key, [...(runs.get(key) ?? []), m]);
    add('after 40 labels (as the product learns)', metrics(outcomes));
    for (const mode of MODES) for (const tau of TAUS) add(`and neighbours in meaning, ${mode}, cosine ≥ ${tau}`, metrics(outcomes.map((o) => byNeighbour(o, labelled, tau, mode))));
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
