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
  // `npm run eval -- --fit` on eval/set-a's tune half (features and L2 chosen by 5-fold CV there).
  bias: -1.401,
  weights: { top: 1.216, coverage: -0.697, titleCoverage: 2.046, margin: 3.508, unknownShare: -3.109, length: 0.635 },
  threshold: 0.48,
  high: 0.661,
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
