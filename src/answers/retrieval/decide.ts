import type { Features } from './retrieve.js';

/**
 * A logistic model of "the best article answers the message", fitted on the evaluation's knowledge
 * bases (`npm run eval -- --fit` prints new coefficients). Its probability is the agent's
 * confidence and the top source's score.
 */
export interface DecisionModel {
  bias: number;
  weights: Record<keyof Features, number>;
  /** Below this probability, a human is needed. */
  threshold: number;
  /** At or above this probability, confidence is high. */
  high: number;
}

export const DEFAULT_MODEL: DecisionModel = {
  // `npm run eval -- --fit` on all three evaluation knowledge bases (set A with set C, GNOME's help, Python's
  // FAQ and tutorial; each base weighing alike): features chosen by the leave-one-base-out figures, L2 by
  // repeated 5-fold CV, the threshold on the out-of-fold probabilities (see eval/loko.ts). Features at 0 were
  // not chosen. Every feature is a share or a ratio of what the knowledge makes possible, so the weights
  // carry to another knowledge base (measured by leaving each base out). Messages decided without it (a request
  // for a person, a pleasantry such as "thanks!") are not its samples.
  bias: -2.846,
  weights: { top: 1.66, coverage: 1.629, titleCoverage: 0.778, keyCoverage: 1.164, margin: 0.362, unknownShare: -1.978, unknownNouns: -0.25, unknownMass: 0, length: 0.847, capabilityGap: 0.143, cosine: 0, cosineMargin: 0, blended: 0, blendedMargin: 0 },
  threshold: 0.59,
  high: 0.69,
};

export const featureNames = Object.keys(DEFAULT_MODEL.weights) as (keyof Features)[];

export function probability(features: Features, model: DecisionModel = DEFAULT_MODEL): number {
  let z = model.bias;
  // A feature or weight missing (a turn stored, or a workspace's model fitted, before the feature existed) counts 0.
  for (const name of featureNames) z += (model.weights[name] ?? 0) * (features[name] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

export function confidenceOf(p: number, model: DecisionModel = DEFAULT_MODEL): 'high' | 'medium' | 'low' {
  if (p >= model.high) return 'high';
  if (p >= model.threshold) return 'medium';
  return 'low';
}
