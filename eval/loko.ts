/**
 * The leave-one-knowledge-base-out evaluation behind `npm run eval` (eval/run.ts): `npm run eval [-- --fit] [-- --set-b] [-- --compare]`: the answer agent's quality on several knowledge bases
 * (eval/bases.ts: set A with set C, GNOME's user help, Python's FAQ and tutorial), each **left out** in turn:
 * the needs_human decision is fitted on the other bases (L2 by cross-validation there, the threshold on their
 * out-of-fold probabilities) and measured on the one left out, with `sources` exactly as composeAnswer returns
 * them; next to plain BM25 whose needs_human threshold is tuned on the same other bases.
 * --fit: the model fitted on all three bases (to paste into src/answers/retrieval/decide.ts).
 * --set-b: also set B (over set A's articles, never fitted on), with the model fitted without set A.
 * --compare: the leave-one-out figures of each candidate feature set (how FEATURES below was chosen).
 * --ceiling: each base's figures with the decision fitted on that base itself, out of fold (as `fit` measures them).
 * --failures NAME: the left-out base's messages the agent got wrong.
 */
import { composeAnswer, semanticText } from '../src/answers/compose-answer.js';
import { cachedVector, semanticOver } from './vectors.js';
import { OfflineGenerator } from '../src/answers/generators/offline-generator.js';
import { type DecisionModel, DEFAULT_MODEL, probability } from '../src/answers/decision/decide.js';
import { humanIntent, pleasantry } from '../src/answers/decision/intents.js';
import { type Features, type QueryParams, retrieve } from '../src/answers/retrieval/retrieve.js';
import { type Confirmation, matchConfirmations } from '../src/answers/decision/confirmed-answers.js';
import type { Base, Question } from './bases.js';
import { chooseByCrossValidation, chooseThreshold, fitModel, type OperatingPoint, type Sample } from './fit-decision.js';
import { type Metrics, metrics, type Outcome } from './metrics.js';

const generator = new OfflineGenerator();
const agent = { name: 'Eval', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };

/** The agent id of the simulated staff's confirmations (eval/labels.ts). */
export const EVAL_AGENT = 'eval';

/** A message's turns through composeAnswer as the API runs them: the thread grows, a hand-off sticks. */
export async function ours(base: Base, q: Question, model: DecisionModel, queryParams?: QueryParams, confirmations: readonly Confirmation[] = []): Promise<Outcome> {
  const thread: { question: string; reply: string }[] = [];
  let needsHumanBefore = false;
  let last;
  for (const [i, message] of q.turns.entries()) {
    const attachmentText = i === q.turns.length - 1 ? q.attachmentText : undefined;
    // Staff's confirmed answers (eval/labels.ts), matched as answer-message.ts matches them: on a first message only.
    const confirmed = (i === 0 ? matchConfirmations({ confirmations, message, agentId: EVAL_AGENT, index: base.index }) : []).map((m) => ({ externalId: m.confirmation.article?.externalId ?? null, same: m.score === 1 }));
    last = await composeAnswer({ index: base.index, message, thread, agent, generator, model, attachmentText, conversationNeedsHuman: needsHumanBefore, semantic: semanticOf(base), queryParams, confirmed });
    thread.push({ question: message, reply: last.message });
    needsHumanBefore ||= last.needsHuman;
  }
  return { q, ranking: last!.ranking, sources: last!.sources.map((s) => s.externalId), needsHuman: last!.needsHuman, features: last!.features, reason: last!.reason };
}

/** composeAnswer's semantic options on a base (none when it was loaded --lexical). */
export function semanticOf(base: Base) {
  return base.vectors.size ? semanticOver(base.vectors) : undefined;
}

/** Plain BM25 on the last message (with its attachment's text): its top three as sources, needs_human below the threshold. */
export function baseline(base: Base, q: Question, threshold: number): Outcome {
  const { ranking, top } = base.bm25.search(`${q.turns.at(-1)!} ${q.attachmentText ?? ''}`);
  return { q, ranking, sources: ranking.slice(0, 3), needsHuman: top < threshold };
}

/** The threshold maximising balanced needs_human accuracy, averaged over the given bases. */
export function tuneBaseline(bases: Base[]): number {
  let best = { t: 0, score: -1 };
  for (let t = 0; t <= 1; t += 0.01) {
    const score = bases.reduce((n, b) => n + metrics(b.questions.map((q) => baseline(b, q, t))).needsHumanBalanced, 0) / bases.length;
    if (score > best.score) best = { t, score };
  }
  return best.t;
}

/** Features of a message's last turn with its thread and attachment, as composeAnswer computes them; null when nothing is retrieved. */
export function featuresOf(base: Base, q: Question): Features | null {
  const message = q.turns.at(-1)!;
  const vector = base.vectors.size ? cachedVector(semanticText(message, q.attachmentText)) : undefined;
  const semantic = vector ? { vector, vectors: base.vectors } : undefined;
  const r = retrieve(base.index, { message, context: q.turns.slice(0, -1), attachmentText: q.attachmentText }, undefined, 10, semantic);
  return r.candidates.length ? r.features : null;
}

export interface BaseSample extends Sample {
  q: Question;
  base: Base;
}

const sampleCache = new Map<Base, BaseSample[]>();

/** The decision's samples of a base (messages an intent hands over, and pleasantries, are not the model's to decide), weighted so each base counts alike. */
export function samplesOf(base: Base): BaseSample[] {
  let out = sampleCache.get(base);
  if (!out) {
    const all = base.questions
      .filter((q) => q.kind !== 'human_request' && !humanIntent(q.turns.at(-1)!) && !(pleasantry(q.turns.at(-1)!) && !q.attachmentText))
      .map((q) => ({ q, base, x: featuresOf(base, q), y: q.needsHuman ? 0 : 1 }))
      .filter((s): s is BaseSample => s.x !== null);
    out = all.map((s) => ({ ...s, w: 100 / all.length }));
    sampleCache.set(base, out);
  }
  return out;
}

/**
 * The feature set of the decision, chosen by the leave-one-base-out figures (--compare): of the candidates
 * below, the one with the best mean balanced accuracy and the lowest worst false-source rate over the three
 * bases (0.667/0.823/0.874 and 0.018/0.167/0.000, with semantic ranking): the blended ranking's top score and
 * margin in place of the lexical ones. The differences between candidates are within a message or two.
 */
export const FEATURES: (keyof Features)[] = ['coverage', 'titleCoverage', 'unknownNouns', 'unknownShare', 'length', 'keyCoverage', 'capabilityGap', 'blended', 'blendedMargin'];

/** The lexical feature set of the previous round (0.669/0.828/0.843 with semantic ranking). */
const LEXICAL_FEATURES: (keyof Features)[] = ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'unknownShare', 'length', 'keyCoverage', 'capabilityGap'];

/** The feature sets --compare measures (the first was the previous round's model). */
export const CANDIDATES: (keyof Features)[][] = [
  LEXICAL_FEATURES,
  [...LEXICAL_FEATURES, 'cosine'],
  [...LEXICAL_FEATURES, 'cosine', 'cosineMargin'],
  [...LEXICAL_FEATURES, 'blended', 'blendedMargin'],
  FEATURES,
  [...LEXICAL_FEATURES, 'cosine', 'blendedMargin'],
  [...LEXICAL_FEATURES.filter((f) => f !== 'margin'), 'cosine', 'blendedMargin'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'length', 'keyCoverage', 'capabilityGap'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'length', 'keyCoverage', 'capabilityGap', 'unknownMass'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'unknownShare', 'unknownMass', 'length', 'keyCoverage', 'capabilityGap'],
  ['top', 'coverage', 'keyCoverage', 'margin', 'unknownNouns', 'unknownMass'],
  ['top', 'coverage', 'keyCoverage', 'unknownShare', 'unknownNouns', 'length'],
];

/** The targets: balanced needs_human accuracy, out-of-scope messages answered with a source. */
export const TARGETS = { balanced: 0.8, falseSource: 0.1 };

/**
 * The decision fitted on the given bases: L2 by cross-validation over their samples, then the threshold
 * on the out-of-fold probabilities (every message as composeAnswer decides it, intents included), the
 * one falling least short of the targets averaged over the bases.
 */
export function fit(bases: Base[], features = FEATURES, log: (line: string) => void = () => {}): DecisionModel {
  const samples = bases.flatMap(samplesOf);
  const choice = chooseByCrossValidation(samples, [features], [0.003, 0.03, 0.3], log);
  const model = fitModel(samples, choice);
  const points = operatingPoints(bases, samples, choice.oof, model);
  const point = chooseThreshold(points, TARGETS);
  log(`l2 ${choice.l2}, out-of-fold log-loss ${choice.logLoss.toFixed(3)}; threshold ${point.t}: out-of-fold balanced ${point.balanced.toFixed(3)}, false-source ${point.falseSource.toFixed(3)}`);
  // High confidence: above the threshold and above 40 % of the answerable messages' out-of-fold probabilities.
  const answerable = samples.flatMap((s, i) => (s.y === 1 ? [choice.oof[i]!] : [])).sort((a, b) => a - b);
  const high = Math.round(Math.max(point.t + 0.1, answerable[Math.floor(answerable.length * 0.4)] ?? 0.8) * 1000) / 1000;
  return { ...model, threshold: point.t, high };
}

/** An operating point with each base's figures beside the mean (eval/threshold-rules.ts chooses by them). */
export interface BasePoint extends OperatingPoint {
  per: { balanced: number; falseSource: number }[];
}

/**
 * Thresholds 0.20-0.80: balanced accuracy and false-source averaged over the bases and per base, every message decided
 * as composeAnswer decides it (a pleasantry answered, a request for a person handed over), by its out-of-fold
 * probability (`oof`, in `samples`' order) where it is one of the model's samples.
 */
export function operatingPoints(bases: Base[], samples: BaseSample[], oof: number[], model: DecisionModel): BasePoint[] {
  const outOfFold = new Map(samples.map((s, i) => [s.q, oof[i]!]));
  const pOf = (b: Base, q: Question) => {
    if (pleasantry(q.turns.at(-1)!) && !q.attachmentText) return 1;
    const x = humanIntent(q.turns.at(-1)!) ? null : featuresOf(b, q);
    return x ? probability(x, model) : 0;
  };
  const decided = bases.map((b) => b.questions.map((q) => ({ q, p: outOfFold.get(q) ?? pOf(b, q) })));
  return Array.from({ length: 61 }, (_, i) => {
    const t = Math.round((0.2 + i * 0.01) * 100) / 100;
    const per = decided.map((d) => metrics(d.map(({ q, p }) => ({ q, ranking: [], sources: p >= t ? [''] : [], needsHuman: p < t }))));
    return { t, balanced: avg(per, 'needsHumanBalanced'), falseSource: avg(per, 'falseSource'), per: per.map((m) => ({ balanced: m.needsHumanBalanced, falseSource: m.falseSource })) };
  });
}

export const avg = (ms: Metrics[], key: keyof Metrics) => ms.reduce((n, m) => n + (m[key] as number), 0) / ms.length;

export interface LeftOut {
  base: Base;
  ours: Metrics;
  bm25: Metrics;
  model: DecisionModel;
}

/** Each base left out in turn: fitted on the others, measured on it. */
export async function leaveOneOut(bases: Base[], features = FEATURES, log?: (line: string) => void): Promise<LeftOut[]> {
  const out: LeftOut[] = [];
  for (const left of bases) {
    const others = bases.filter((b) => b !== left);
    const model = fit(others, features, log);
    const threshold = tuneBaseline(others);
    const oursM = metrics(await Promise.all(left.questions.map((q) => ours(left, q, model))));
    const bm25M = metrics(left.questions.map((q) => baseline(left, q, threshold)));
    out.push({ base: left, ours: oursM, bm25: bm25M, model });
  }
  return out;
}

