/**
 * `npx tsx eval/threshold-rules.ts`: other rules for choosing the decision's threshold, each base left out (the weights
 * and the threshold chosen on the other two bases' out-of-fold probabilities, as eval/loko.ts `fit` does with its one
 * rule), measured on the base left out. Issue #47, 2026-12-08: whether a rule other than today's (the least shortfall
 * from balanced 0.8 and false-source 0.1, averaged over the bases) does better on every base; the figures are in
 * eval/RESULTS.md.
 */
import { loadBases } from './bases.js';
import { chooseByCrossValidation, fitModel } from './fit-decision.js';
import { type BasePoint as Point, FEATURES, operatingPoints, ours, samplesOf, TARGETS } from './loko.js';
import { metrics } from './metrics.js';

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
  const points = operatingPoints(others, samples, choice.oof, model);
  for (const [name, rule] of Object.entries(RULES)) {
    const t = rule(points);
    const m = metrics(await Promise.all(left.questions.map((q) => ours(left, q, { ...model, threshold: t }))));
    console.log(`${left.name} left out, ${name}: threshold ${t.toFixed(2)}, balanced ${m.needsHumanBalanced.toFixed(3)}, false-source ${m.falseSource.toFixed(3)}, right / wrong ${m.answeredRight} / ${m.answeredWrong} of ${m.answerable}`);
  }
}
