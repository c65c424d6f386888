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
  // `npm run eval -- --fit` on eval/set-a's tune half: features and L2 chosen by repeated 5-fold CV
  // there, the threshold on the out-of-fold probabilities (see eval/run.ts). Features at 0 were not chosen.
  bias: -0.924,
  weights: { top: 2.443, coverage: 0, titleCoverage: 1.61, keyCoverage: 0, margin: 2.263, unknownShare: 0, unknownNouns: -4.334, length: 0, capabilityGap: 0 },
  threshold: 0.55,
  high: 0.663,
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
