import { describe, expect, it } from 'vitest';
import { chooseThreshold, fitLogistic, logLoss, outOfFold, type Sample } from '../../eval/fit-decision.js';
import { confidenceOf, DEFAULT_MODEL, featureNames, probability } from '../../src/answers/decision/decide.js';
import type { Features } from '../../src/answers/retrieval/retrieve.js';

const zero = Object.fromEntries(featureNames.map((f) => [f, 0])) as unknown as Features;
/** Answerable messages have a high top score; the others a low one, with a little overlap. */
const samples: Sample[] = Array.from({ length: 40 }, (_, i) => {
  const y = i % 4 === 0 ? 0 : 1;
  const top = y ? 0.3 + (i % 7) * 0.1 : 0.05 + (i % 5) * 0.06;
  return { x: { ...zero, top, unknownShare: y ? 0.1 : 0.5 }, y };
});

describe('the needs_human decision model', () => {
  it('gives a probability in [0, 1] that grows with the top score, and confidence from it', () => {
    const low = probability({ ...zero, top: 0.05, unknownShare: 0.8, unknownNouns: 0.6 });
    const high = probability({ ...zero, top: 0.9, coverage: 1, titleCoverage: 1, keyCoverage: 1, margin: 0.6, length: Math.log1p(4) });
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(1);
    expect(high).toBeGreaterThan(low);
    expect(confidenceOf(low)).toBe('low');
    expect(confidenceOf(high)).toBe('high');
    expect(confidenceOf(DEFAULT_MODEL.threshold)).toBe('medium');
  });

  it('needs a human sooner when the unknown words are nouns (another subject) than when they only tell a story', () => {
    const story = probability({ ...zero, top: 0.3, titleCoverage: 0.5, margin: 0.3, unknownShare: 0.3 });
    const otherSubject = probability({ ...zero, top: 0.3, titleCoverage: 0.5, margin: 0.3, unknownShare: 0.3, unknownNouns: 0.3 });
    expect(otherSubject).toBeLessThan(story);
  });
});

describe('fitting the decision (eval/fit-decision.ts)', () => {
  it('fits a logistic model that separates the classes, leaving unlisted features at 0', () => {
    const m = fitLogistic(samples, ['top', 'unknownShare'], 0.003);
    expect(m.weights.top).toBeGreaterThan(0);
    expect(m.weights.unknownShare).toBeLessThan(0);
    expect(m.weights.margin).toBe(0);
  });

  it('reaches the optimum of the class-balanced, L2-penalised log-likelihood (its gradient is zero there)', () => {
    const l2 = 0.03;
    const m = fitLogistic(samples, ['top', 'unknownShare'], l2);
    const pos = samples.filter((s) => s.y === 1).length;
    const weightOf = (y: number) => (y === 1 ? samples.length / (2 * pos) : samples.length / (2 * (samples.length - pos)));
    const gradient = { bias: 0, top: l2 * m.weights.top, unknownShare: l2 * m.weights.unknownShare };
    for (const { x, y } of samples) {
      const p = 1 / (1 + Math.exp(-(m.bias + m.weights.top * x.top + m.weights.unknownShare * x.unknownShare)));
      const err = ((p - y) * weightOf(y)) / samples.length;
      gradient.bias += err;
      gradient.top += err * x.top;
      gradient.unknownShare += err * x.unknownShare;
    }
    for (const g of Object.values(gradient)) expect(Math.abs(g)).toBeLessThan(1e-8);
  });

  it('gives out-of-fold probabilities that are reproducible and better than chance', () => {
    const a = outOfFold(samples, ['top', 'unknownShare'], 0.003);
    expect(outOfFold(samples, ['top', 'unknownShare'], 0.003)).toEqual(a);
    expect(logLoss(samples, a)).toBeLessThan(Math.log(2));
  });

  it('chooses the threshold that falls least short of both targets, the middle one among equals', () => {
    const points = [
      { t: 0.3, balanced: 0.86, falseSource: 0.4 },
      { t: 0.4, balanced: 0.82, falseSource: 0.1 },
      { t: 0.5, balanced: 0.82, falseSource: 0.1 },
      { t: 0.6, balanced: 0.82, falseSource: 0.05 },
      { t: 0.7, balanced: 0.7, falseSource: 0 },
    ];
    expect(chooseThreshold(points, { balanced: 0.85, falseSource: 0.1 }).t).toBe(0.5);
  });
});
