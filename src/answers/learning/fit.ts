import { type DecisionModel, featureNames, probability } from '../decision/decide.js';
import type { Features } from '../retrieval/features.js';

export interface Sample {
  x: Features;
  /** 1: the knowledge answers the message; 0: a human is needed. */
  y: number;
  /** How much the sample counts (default 1): samples of a smaller knowledge base weigh more, so each base counts alike. */
  w?: number;
}

type Weights = DecisionModel['weights'];

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares: a few steps, where
 * gradient descent needed thousands), classes weighted equally when both are present.
 *
 * Without `prior` (the global fit): the mean loss, classes weighted equally when both are present,
 * L2 on the weights but not the bias, features not listed stay 0.
 * With `prior` (a workspace's refit on its staff's labels): the summed loss, every label alike, and
 * the penalty pulling bias and weights toward the prior's, worth `l2` labels: a few labels move it a
 * little, many move it more, and one kind of label outnumbered by the other weighs only its count.
 */
export function fitLogistic(samples: Sample[], features: (keyof Features)[], l2: number, prior?: { bias: number; weights: Weights }): { bias: number; weights: Weights } {
  const total = samples.reduce((n, s) => n + (s.w ?? 1), 0);
  const pos = samples.reduce((n, s) => n + (s.y === 1 ? (s.w ?? 1) : 0), 0);
  const balanced = !prior && pos > 0 && pos < total;
  const classWeight = (y: number) => (!balanced ? 1 : y === 1 ? total / (2 * pos) : total / (2 * (total - pos)));
  const k = features.length + 1;
  const rows = samples.map((s) => [1, ...features.map((f) => s.x[f])]);
  const centre = prior ? [prior.bias, ...features.map((f) => prior.weights[f])] : new Array<number>(k).fill(0);
  const penalised = (j: number) => j > 0 || prior !== undefined;
  const weightOf = (s: Sample) => (prior ? (s.w ?? 1) : (classWeight(s.y) * (s.w ?? 1)) / total);
  const objective = (b: number[]) =>
    samples.reduce((sum, s, n) => {
      const z = rows[n]!.reduce((acc, v, j) => acc + v * b[j]!, 0);
      // -log σ(z) for y = 1, -log(1 - σ(z)) for y = 0, written so neither overflows.
      const loss = Math.max(0, s.y === 1 ? -z : z) + Math.log1p(Math.exp(-Math.abs(z)));
      return sum + weightOf(s) * loss;
    }, 0) + b.reduce((sum, v, j) => sum + (penalised(j) ? (l2 / 2) * (v - centre[j]!) ** 2 : 0), 0);
  let beta = [...centre];
  let current = objective(beta);
  for (let iter = 0; iter < 50; iter++) {
    const grad = beta.map((b, j) => (penalised(j) ? l2 * (b - centre[j]!) : 0));
    const hess = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j && penalised(i) ? l2 : 0)));
    samples.forEach((s, n) => {
      const x = rows[n]!;
      const p = sigmoid(x.reduce((z, v, j) => z + v * beta[j]!, 0));
      const c = weightOf(s);
      for (let i = 0; i < k; i++) {
        grad[i]! += c * (p - s.y) * x[i]!;
        for (let j = 0; j < k; j++) hess[i]![j]! += c * p * (1 - p) * x[i]! * x[j]!;
      }
    });
    const step = solve(hess, grad);
    // A full Newton step can overshoot where the data are (nearly) separable, as a few labels of one
    // kind are: halve it until the objective goes down.
    let scale = 1;
    let next = beta.map((b, j) => b - step[j]!);
    let value = objective(next);
    while (value > current && scale > 1e-6) {
      scale /= 2;
      next = beta.map((b, j) => b - scale * step[j]!);
      value = objective(next);
    }
    if (value > current) break;
    beta = next;
    current = value;
    if (Math.max(...step.map((v) => Math.abs(v * scale))) < 1e-9) break;
  }
  const w = Object.fromEntries(featureNames.map((f) => [f, prior?.weights[f] ?? 0])) as Weights;
  features.forEach((f, j) => (w[f] = beta[j + 1]!));
  return { bias: beta[0]!, weights: w };
}

/** Solves a x = b by Gaussian elimination with partial pivoting (a small, symmetric positive definite system). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const d = m[c]![c]! || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  return m.map((row, i) => row[n]! / (row[i]! || 1e-12));
}

/** Labels a workspace needs before its decision is refitted: fewer say more about chance than about the workspace. */
export const MIN_LABELS = 20;

/**
 * And of each kind (answerable, should have gone to a person): labels all of one kind say nothing of
 * where the line between them runs, and would only push every answer one way.
 */
export const MIN_PER_KIND = 5;

/**
 * The pull toward the global model: L2 toward its coefficients, worth this many labels. Chosen by
 * `npm run eval` (40 simulated labels on each base's tune half, measured on its test half; see eval/RESULTS.md).
 */
export const SHRINKAGE = 40;

/**
 * The workspace's own decision, refitted on its staff's labels (features as the turn was decided, y as
 * staff said: 1 it was answerable, 0 it should have gone to a person) and shrunk toward `global`: the
 * same features, threshold and confidence bands; only how much each feature counts moves. Below
 * MIN_LABELS, or MIN_PER_KIND of either kind, the global model.
 */
export function refitDecision(global: DecisionModel, labelled: Sample[], shrinkage = SHRINKAGE): DecisionModel {
  const answerable = labelled.filter((s) => s.y === 1).length;
  if (labelled.length < MIN_LABELS || answerable < MIN_PER_KIND || labelled.length - answerable < MIN_PER_KIND) return global;
  const features = featureNames.filter((f) => global.weights[f] !== 0);
  const fitted = fitLogistic(labelled, features, shrinkage, global);
  return { ...global, bias: fitted.bias, weights: fitted.weights };
}

/** Folds of the held-out check: each verdict is judged by a model fitted without it. */
export const CHECK_FOLDS = 5;

/** How a model does on verdicts: balanced accuracy (answerable answered, the rest handed over) and the share of "should have gone to a person" it answered. */
export interface HeldOutScore {
  balanced: number;
  answeredWrongly: number;
  /** Mean log loss of the probabilities: how sure it was where it was right, and where it was wrong. */
  logLoss: number;
}

/** What the last refit found: the new fit and the model in use, on the same verdicts, and which was kept. */
export interface RefitCheck {
  labels: number;
  fitted: HeldOutScore;
  previous: HeldOutScore;
  kept: 'fitted' | 'previous';
}

function score(samples: Sample[], p: number[], threshold: number): HeldOutScore {
  const answers = p.map((q) => q >= threshold);
  const clamp = (q: number) => Math.min(1 - 1e-6, Math.max(1e-6, q));
  const logLoss = samples.reduce((sum, s, i) => sum - (s.y === 1 ? Math.log(clamp(p[i]!)) : Math.log(1 - clamp(p[i]!))), 0) / (samples.length || 1);
  let tp = 0;
  let pos = 0;
  let fp = 0;
  let neg = 0;
  samples.forEach((s, i) => {
    if (s.y === 1) {
      pos++;
      if (answers[i]) tp++;
    } else {
      neg++;
      if (answers[i]) fp++;
    }
  });
  const tpr = pos ? tp / pos : 1;
  const tnr = neg ? (neg - fp) / neg : 1;
  return { balanced: (tpr + tnr) / 2, answeredWrongly: neg ? fp / neg : 0, logLoss };
}

/**
 * A refit that keeps its promise: the new fit replaces the model in use only when it is better on
 * verdicts it was not fitted on. Each verdict is decided by a model refitted without its fold (CHECK_FOLDS folds,
 * every fifth verdict in each), and the model in use (the global one, or the workspace's last refit) decides the
 * same verdicts; the new fit is kept when its balanced accuracy is no lower and it answers no larger a share of the
 * verdicts that should have gone to a person, and it is better in one of them or, deciding alike, in its log loss
 * (surer where staff agreed, less sure where they did not). The model in use is judged on verdicts it may have been fitted on,
 * which flatters it: the rule leans toward keeping what works. Below the labels refitDecision needs, the global
 * model, unchecked.
 */
export function checkedRefit(global: DecisionModel, previous: DecisionModel, labelled: Sample[], shrinkage = SHRINKAGE): { model: DecisionModel; check: RefitCheck | null } {
  const fitted = refitDecision(global, labelled, shrinkage);
  if (fitted === global) return { model: global, check: null };
  // Each fold's model as refitDecision fits one, without its minimum (a fold's rest of 20 verdicts is 16).
  const features = featureNames.filter((f) => global.weights[f] !== 0);
  const foldModels = Array.from({ length: CHECK_FOLDS }, (_, k) => {
    const rest = labelled.filter((_, j) => j % CHECK_FOLDS !== k);
    return rest.some((s) => s.y === 1) && rest.some((s) => s.y === 0) ? { ...global, ...fitLogistic(rest, features, shrinkage, global) } : global;
  });
  const heldOut = labelled.map((s, i) => probability(s.x, foldModels[i % CHECK_FOLDS]));
  const check: RefitCheck = {
    labels: labelled.length,
    fitted: score(labelled, heldOut, global.threshold),
    previous: score(labelled, labelled.map((s) => probability(s.x, previous)), global.threshold),
    kept: 'previous',
  };
  const { fitted: f, previous: q } = check;
  // Never worse in what staff see (balanced accuracy, wrongly answered), and better in it or, deciding alike, in how sure it is.
  if (f.balanced >= q.balanced && f.answeredWrongly <= q.answeredWrongly && (f.balanced > q.balanced || f.answeredWrongly < q.answeredWrongly || f.logLoss < q.logLoss)) check.kept = 'fitted';
  return { model: check.kept === 'fitted' ? fitted : previous, check };
}
