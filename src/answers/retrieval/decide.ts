import type { Features } from './retrieve.js';

/**
 * A logistic model of "the best article answers the message", fitted on the evaluation's tuning
 * half (`npm run eval -- --fit` prints new coefficients). Its probability is the agent's
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
  // `npm run eval -- --fit` on the training questions (eval/set-a's tune half and eval/set-c): features
  // and L2 chosen by repeated 5-fold CV there, the threshold on the out-of-fold probabilities (see
  // eval/run.ts). Features at 0 were not chosen.
  bias: -2.213,
  weights: { top: 1.189, coverage: 0.708, titleCoverage: 0.432, keyCoverage: 1.558, margin: 1.018, unknownShare: 0, unknownNouns: -1.452, length: 0.657, capabilityGap: -0.747 },
  threshold: 0.6,
  high: 0.7,
};

export const featureNames = Object.keys(DEFAULT_MODEL.weights) as (keyof Features)[];

export function probability(features: Features, model: DecisionModel = DEFAULT_MODEL): number {
  let z = model.bias;
  for (const name of featureNames) z += model.weights[name] * features[name];
  return 1 / (1 + Math.exp(-z));
}

export function confidenceOf(p: number, model: DecisionModel = DEFAULT_MODEL): 'high' | 'medium' | 'low' {
  if (p >= model.high) return 'high';
  if (p >= model.threshold) return 'medium';
  return 'low';
}
