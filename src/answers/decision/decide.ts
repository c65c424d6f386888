import type { Features } from '../retrieval/retrieve.js';

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
  // FAQ and tutorial; each base weighing alike), with semantic ranking (the built-in sentence encoder): features
  // chosen by the leave-one-base-out figures, L2 by repeated 5-fold CV, the threshold on the out-of-fold
  // probabilities (see eval/loko.ts). Features at 0 were not chosen. The blended ranking's top score and margin
  // (`blended`, `blendedMargin`) stand where the lexical ones stood: the decision weighs the article that ranked
  // first by words and meaning together. Every feature is a share or a ratio of what the knowledge makes possible,
  // so the weights carry to another knowledge base (measured by leaving each base out). Messages decided without
  // it (a request for a person, a pleasantry such as "thanks!") are not its samples.
  bias: -2.611,
  weights: { top: 0, coverage: 2.125, titleCoverage: 0.925, keyCoverage: 1.306, margin: 0, unknownShare: -2.166, unknownNouns: -0.159, unknownMass: 0, length: 0.794, capabilityGap: 0.295, cosine: 0, cosineMargin: 0, blended: 0.226, blendedMargin: 0.977 },
  threshold: 0.64,
  high: 0.74,
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

/** The workspace's decision: its refitted one when it has one, else the global one (thresholds always the global's). */
export function workspaceModel(stored: unknown): DecisionModel {
  if (!stored || typeof stored !== 'object') return DEFAULT_MODEL;
  const { bias, weights } = stored as { bias?: unknown; weights?: Record<string, unknown> };
  if (typeof bias !== 'number' || !weights || typeof weights !== 'object') return DEFAULT_MODEL;
  const merged = { ...DEFAULT_MODEL.weights };
  for (const name of featureNames) if (typeof weights[name] === 'number') merged[name] = weights[name];
  return { ...DEFAULT_MODEL, bias, weights: merged };
}
