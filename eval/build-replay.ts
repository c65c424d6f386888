/**
 * `npm run eval -- --build`: ranking while an import's vectors are being built (issue #47 item 1). For each base left
 * out (the decision fitted on the others), a share of its articles (0, 25, 50, 75, 100 %, drawn in a fixed order,
 * the same for every strategy) has vectors, as at that point of a build, and every message is answered with each
 * way of ranking a partial build (semantic.ts, PartialVectors). The figures at 0 % are the lexical ranking's.
 */
import type { DecisionModel } from '../src/answers/decision/decide.js';
import type { PartialVectors } from '../src/answers/retrieval/semantic.js';
import { DEFAULT_QUERY } from '../src/answers/retrieval/retrieve.js';
import type { Base } from './bases.js';
import { ours } from './loko.js';
import { fmt, type Metrics, metrics } from './metrics.js';

export const BUILD_POINTS = [0, 0.25, 0.5, 0.75, 1];
export const STRATEGIES: PartialVectors[] = ['mixed', 'lexical', 'partition'];

/** A fixed pseudo-random order of the base's article ids (a build embeds in id order; imports come in any order). */
function buildOrder(base: Base, seed: number): number[] {
  const ids = base.index.articles.map((a) => a.doc.id);
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

/** The base as it is when `share` of its articles (in build order) have vectors. */
export function partway(base: Base, share: number, seed = 1): Base {
  const order = buildOrder(base, seed);
  const ready = new Set(order.slice(0, Math.round(order.length * share)));
  return { ...base, vectors: new Map([...base.vectors].filter(([id]) => ready.has(id))) };
}

/** Prints one table row per point and strategy for the base, and returns the worst shortfall against the lexical ranking. */
export async function buildReplay(base: Base, model: DecisionModel, log: (line: string) => void, seeds = [1, 2, 3]): Promise<Record<PartialVectors, number>> {
  const worst = { mixed: Infinity, lexical: Infinity, partition: Infinity } as Record<PartialVectors, number>;
  const lexical = metrics(await Promise.all(base.questions.map((q) => ours({ ...base, vectors: new Map() }, q, model))));
  log(`| ${base.name} | words only | – | ${fmt(lexical.recall1)} | ${fmt(lexical.rankRecall1)} | ${fmt(lexical.needsHumanBalanced)} | ${fmt(lexical.falseSource)} |`);
  for (const share of BUILD_POINTS.slice(1)) {
    for (const strategy of STRATEGIES) {
      // Each point averaged over a few build orders (at 100 % they are all the same).
      const runs: Metrics[] = [];
      for (const seed of share === 1 ? [1] : seeds) {
        const at = partway(base, share, seed);
        runs.push(metrics(await Promise.all(at.questions.map((q) => ours(at, q, model, { ...DEFAULT_QUERY, partialVectors: strategy })))));
      }
      const mean = (k: 'recall1' | 'rankRecall1' | 'needsHumanBalanced' | 'falseSource') => runs.reduce((n, m) => n + m[k], 0) / runs.length;
      worst[strategy] = Math.min(worst[strategy], mean('recall1') - lexical.recall1);
      log(`| ${base.name} | ${strategy} | ${Math.round(share * 100)} % | ${fmt(mean('recall1'))} | ${fmt(mean('rankRecall1'))} | ${fmt(mean('needsHumanBalanced'))} | ${fmt(mean('falseSource'))} |`);
    }
  }
  return worst;
}

export const BUILD_HEADER = '| base (left out) | ranking | articles with vectors | recall@1 (sources) | recall@1 (ranking) | balanced | false-source |\n|---|---|---|---|---|---|---|';
