/**
 * Fitting the needs_human decision (src/answers/retrieval/decide.ts) on training questions only:
 * a class-balanced logistic regression whose feature set and L2 strength are chosen by repeated,
 * stratified 5-fold cross-validation (lowest out-of-fold log-loss), and whose threshold is chosen
 * on the out-of-fold probabilities, so that nothing is judged on the questions it was fitted on.
 */
import { type DecisionModel, DEFAULT_MODEL, featureNames } from '../src/answers/decision/decide.js';
import type { Features } from '../src/answers/retrieval/retrieve.js';
import { fitLogistic, type Sample } from '../src/answers/learning/fit.js';

export type { Sample } from '../src/answers/learning/fit.js';
export { fitLogistic };

type Weights = DecisionModel['weights'];

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const linear = (bias: number, weights: Weights, x: Features) => featureNames.reduce((z, f) => z + weights[f] * x[f], bias);

/** A seeded generator, so that folds (and so the fit) are the same on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Probabilities of each sample from models that never saw it, averaged over `repeats` stratified 5-fold splits. */
export function outOfFold(samples: Sample[], features: (keyof Features)[], l2: number, repeats = 5, folds = 5): number[] {
  const sum = samples.map(() => 0);
  for (let r = 0; r < repeats; r++) {
    const next = random(r + 1);
    const fold = new Array<number>(samples.length).fill(0);
    for (const y of [0, 1]) {
      const members = samples.map((s, i) => (s.y === y ? i : -1)).filter((i) => i >= 0);
      const keyed = members.map((i) => ({ i, k: next() })).sort((a, b) => a.k - b.k);
      keyed.forEach(({ i }, n) => (fold[i] = n % folds));
    }
    for (let k = 0; k < folds; k++) {
      const m = fitLogistic(samples.filter((_, i) => fold[i] !== k), features, l2);
      samples.forEach((s, i) => {
        if (fold[i] === k) sum[i]! += sigmoid(linear(m.bias, m.weights, s.x));
      });
    }
  }
  return sum.map((v) => v / repeats);
}

/** Class-balanced log-loss of probabilities against the samples' labels (lower is better). */
export function logLoss(samples: Sample[], p: number[]): number {
  const pos = samples.reduce((n, s) => n + (s.y === 1 ? (s.w ?? 1) : 0), 0);
  const neg = samples.reduce((n, s) => n + (s.y === 1 ? 0 : (s.w ?? 1)), 0);
  const eps = 1e-6;
  return samples.reduce((n, s, i) => n - ((s.w ?? 1) * (s.y ? Math.log(Math.max(eps, p[i]!)) / pos : Math.log(Math.max(eps, 1 - p[i]!)) / neg)) / 2, 0);
}

export interface Choice {
  features: (keyof Features)[];
  l2: number;
  logLoss: number;
  /** Out-of-fold probability of each sample under this choice. */
  oof: number[];
}

/** The candidate feature set and L2 with the lowest out-of-fold log-loss. */
export function chooseByCrossValidation(samples: Sample[], candidates: (keyof Features)[][], l2s: number[], log: (line: string) => void): Choice {
  let best: Choice | null = null;
  for (const features of candidates) {
    for (const l2 of l2s) {
      const oof = outOfFold(samples, features, l2);
      const loss = logLoss(samples, oof);
      log(`cv log-loss ${loss.toFixed(3)} l2=${l2} ${features.join(',')}`);
      if (!best || loss < best.logLoss - 1e-9) best = { features, l2, logLoss: loss, oof };
    }
  }
  return best!;
}

/** The model fitted on all samples with the chosen features and L2 (threshold and `high` set by the caller). */
export function fitModel(samples: Sample[], choice: Choice): DecisionModel {
  const m = fitLogistic(samples, choice.features, choice.l2);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const weights = Object.fromEntries(featureNames.map((f) => [f, round(m.weights[f])])) as Weights;
  return { ...DEFAULT_MODEL, bias: round(m.bias), weights };
}

export interface OperatingPoint {
  t: number;
  balanced: number;
  falseSource: number;
}

/**
 * The threshold whose out-of-fold operating point falls least short of both targets (shortfalls
 * added: balanced accuracy below its target, false-source rate above its bound); among equals, the
 * middle one, away from the edges of a noisy curve.
 */
export function chooseThreshold(points: OperatingPoint[], targets: { balanced: number; falseSource: number }): OperatingPoint {
  const shortfall = (p: OperatingPoint) => Math.max(0, targets.balanced - p.balanced) + Math.max(0, p.falseSource - targets.falseSource);
  const least = Math.min(...points.map(shortfall));
  const best = points.filter((p) => shortfall(p) <= least + 1e-9);
  return best[Math.floor((best.length - 1) / 2)]!;
}
