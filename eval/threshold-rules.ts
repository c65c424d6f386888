/**
 * `npx tsx eval/threshold-rules.ts`: other rules for choosing the decision's threshold, each base left out (the weights
 * and the threshold chosen on the other two bases' out-of-fold probabilities, as eval/loko.ts `fit` does with its one
 * rule), measured on the base left out. Issue #47, 2026-12-08: whether a rule other than today's (the least shortfall
 * from balanced 0.8 and false-source 0.1, averaged over the bases) does better on every base; the figures are in
 * eval/RESULTS.md.
 */
import { humanIntent, pleasantry } from '../src/answers/decision/intents.js';
import { probability } from '../src/answers/decision/decide.js';
import { type Base, loadBases, type Question } from './bases.js';
import { chooseByCrossValidation, fitModel, type OperatingPoint } from './fit-decision.js';
import { avg, FEATURES, featuresOf, ours, samplesOf, TARGETS } from './loko.js';
import { metrics } from './metrics.js';

type Point = OperatingPoint & { per: { balanced: number; falseSource: number }[] };

/** Of the points a rule scores best, the middle one (as chooseThreshold takes it). */
function middleOfBest(points: Point[], score: (p: Point) => number): number {
  const best = Math.max(...points.map(score));
  const chosen = points.filter((p) => score(p) >= best - 1e-9);
  return chosen[Math.floor((chosen.length - 1) / 2)]!.t;
}
const shortfall = (balanced: number, falseSource: number) => (p: Point) => -(Math.max(0, balanced - p.balanced) + Math.max(0, p.falseSource - falseSource));

const RULES: Record<string, (points: Point[]) => number> = {
  [`least shortfall from ${TARGETS.balanced} / ${TARGETS.falseSource} (today's)`]: (pts) => middleOfBest(pts, shortfall(TARGETS.balanced, TARGETS.falseSource)),
  'least shortfall from 0.8 / 0.05': (pts) => middleOfBest(pts, shortfall(0.8, 0.05)),
  'best mean balanced': (pts) => middleOfBest(pts, (p) => p.balanced),
  'best mean balanced, every base false-source ≤ 0.1': (pts) => {
    const ok = pts.filter((p) => p.per.every((b) => b.falseSource <= 0.1));
    return middleOfBest(ok.length ? ok : pts, (p) => p.balanced);
  },
  'best worst base balanced': (pts) => middleOfBest(pts, (p) => Math.min(...p.per.map((b) => b.balanced))),
};

const bases = await loadBases();
for (const left of bases) {
  const others = bases.filter((b) => b !== left);
  const samples = others.flatMap(samplesOf);
  const choice = chooseByCrossValidation(samples, [FEATURES], [0.003, 0.03, 0.3], () => {});
  const model = fitModel(samples, choice);
  const oof = new Map(samples.map((s, i) => [s.q, choice.oof[i]!]));
  // As fit() decides the messages the model does not (a pleasantry is answered, a request for a person handed over).
  const pOf = (b: Base, q: Question) => {
    if (pleasantry(q.turns.at(-1)!) && !q.attachmentText) return 1;
    const x = humanIntent(q.turns.at(-1)!) ? null : featuresOf(b, q);
    return x ? probability(x, model) : 0;
  };
  const decided = others.map((b) => b.questions.map((q) => ({ q, p: oof.get(q) ?? pOf(b, q) })));
  const points: Point[] = Array.from({ length: 61 }, (_, i) => {
    const t = Math.round((0.2 + i * 0.01) * 100) / 100;
    const per = decided.map((d) => metrics(d.map(({ q, p }) => ({ q, ranking: [], sources: p >= t ? [''] : [], needsHuman: p < t }))));
    return { t, balanced: avg(per, 'needsHumanBalanced'), falseSource: avg(per, 'falseSource'), per: per.map((m) => ({ balanced: m.needsHumanBalanced, falseSource: m.falseSource })) };
  });
  for (const [name, rule] of Object.entries(RULES)) {
    const t = rule(points);
    const m = metrics(await Promise.all(left.questions.map((q) => ours(left, q, { ...model, threshold: t }))));
    console.log(`${left.name} left out, ${name}: threshold ${t.toFixed(2)}, balanced ${m.needsHumanBalanced.toFixed(3)}, false-source ${m.falseSource.toFixed(3)}, right / wrong ${m.answeredRight} / ${m.answeredWrong} of ${m.answerable}`);
  }
}
