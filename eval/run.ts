/**
 * `npm run eval [-- --fit] [-- --set-b] [-- --compare]`: the answer agent's quality on several knowledge bases
 * (eval/bases.ts: set A with set C, GNOME's user help, Python's FAQ and tutorial), each **left out** in turn:
 * the needs_human decision is fitted on the other bases (L2 by cross-validation there, the threshold on their
 * out-of-fold probabilities) and measured on the one left out, with `sources` exactly as composeAnswer returns
 * them; next to plain BM25 whose needs_human threshold is tuned on the same other bases.
 * --fit: the model fitted on all three bases (to paste into src/answers/retrieval/decide.ts).
 * --set-b: also set B (over set A's articles, never fitted on), with the model fitted without set A.
 * --compare: the leave-one-out figures of each candidate feature set (how FEATURES below was chosen).
 * --failures NAME: the left-out base's messages the agent got wrong.
 */
import { composeAnswer } from '../src/answers/compose-answer.js';
import { OfflineGenerator } from '../src/answers/generators/offline-generator.js';
import { type DecisionModel, DEFAULT_MODEL, probability } from '../src/answers/retrieval/decide.js';
import { humanIntent } from '../src/answers/retrieval/intents.js';
import { type Features, retrieve } from '../src/answers/retrieval/retrieve.js';
import { type Base, loadBases, loadSetB, type Question } from './bases.js';
import { chooseByCrossValidation, chooseThreshold, fitModel, type Sample } from './fit-decision.js';
import { HEADER, type Metrics, metrics, type Outcome, row } from './metrics.js';

const generator = new OfflineGenerator();
const agent = { name: 'Eval', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };

/** A message's turns through composeAnswer as the API runs them: the thread grows, a hand-off sticks. */
async function ours(base: Base, q: Question, model: DecisionModel): Promise<Outcome> {
  const thread: { question: string; reply: string }[] = [];
  let needsHumanBefore = false;
  let last;
  for (const [i, message] of q.turns.entries()) {
    const attachmentText = i === q.turns.length - 1 ? q.attachmentText : undefined;
    last = await composeAnswer({ index: base.index, message, thread, agent, generator, model, attachmentText, conversationNeedsHuman: needsHumanBefore });
    thread.push({ question: message, reply: last.message });
    needsHumanBefore ||= last.needsHuman;
  }
  return { q, ranking: last!.ranking, sources: last!.sources.map((s) => s.externalId), needsHuman: last!.needsHuman };
}

/** Plain BM25 on the last message (with its attachment's text): its top three as sources, needs_human below the threshold. */
function baseline(base: Base, q: Question, threshold: number): Outcome {
  const { ranking, top } = base.bm25.search(`${q.turns.at(-1)!} ${q.attachmentText ?? ''}`);
  return { q, ranking, sources: ranking.slice(0, 3), needsHuman: top < threshold };
}

/** The threshold maximising balanced needs_human accuracy, averaged over the given bases. */
function tuneBaseline(bases: Base[]): number {
  let best = { t: 0, score: -1 };
  for (let t = 0; t <= 1; t += 0.01) {
    const score = bases.reduce((n, b) => n + metrics(b.questions.map((q) => baseline(b, q, t))).needsHumanBalanced, 0) / bases.length;
    if (score > best.score) best = { t, score };
  }
  return best.t;
}

/** Features of a message's last turn with its thread and attachment, as composeAnswer computes them; null when nothing is retrieved. */
function featuresOf(base: Base, q: Question): Features | null {
  const r = retrieve(base.index, { message: q.turns.at(-1)!, context: q.turns.slice(0, -1), attachmentText: q.attachmentText });
  return r.candidates.length ? r.features : null;
}

interface BaseSample extends Sample {
  q: Question;
  base: Base;
}

const sampleCache = new Map<Base, BaseSample[]>();

/** The decision's samples of a base (messages an intent hands over are not the model's to decide), weighted so each base counts alike. */
function samplesOf(base: Base): BaseSample[] {
  let out = sampleCache.get(base);
  if (!out) {
    const all = base.questions
      .filter((q) => q.kind !== 'human_request' && !humanIntent(q.turns.at(-1)!))
      .map((q) => ({ q, base, x: featuresOf(base, q), y: q.needsHuman ? 0 : 1 }))
      .filter((s): s is BaseSample => s.x !== null);
    out = all.map((s) => ({ ...s, w: 100 / all.length }));
    sampleCache.set(base, out);
  }
  return out;
}

/** The feature set of the decision, chosen by the leave-one-base-out figures (--compare). */
const FEATURES: (keyof Features)[] = ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'length', 'keyCoverage', 'capabilityGap'];

/** Other feature sets --compare measures. */
const CANDIDATES: (keyof Features)[][] = [
  FEATURES,
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownShare', 'length'],
  ['top', 'titleCoverage', 'margin', 'unknownNouns'],
  ['top', 'coverage', 'keyCoverage', 'margin', 'unknownNouns'],
];

/** The issue's targets: balanced needs_human accuracy, out-of-scope messages answered with a source. */
const TARGETS = { balanced: 0.8, falseSource: 0.1 };

/**
 * The decision fitted on the given bases: L2 by cross-validation over their samples, then the threshold
 * on the out-of-fold probabilities (every message as composeAnswer decides it, intents included), the
 * one falling least short of the targets averaged over the bases.
 */
function fit(bases: Base[], features = FEATURES, log: (line: string) => void = () => {}): DecisionModel {
  const samples = bases.flatMap(samplesOf);
  const choice = chooseByCrossValidation(samples, [features], [0.003, 0.03, 0.3], log);
  const model = fitModel(samples, choice);
  const oof = new Map(samples.map((s, i) => [s.q, choice.oof[i]!]));
  const pOf = (b: Base, q: Question) => {
    const x = humanIntent(q.turns.at(-1)!) ? null : featuresOf(b, q);
    return x ? probability(x, model) : 0;
  };
  const decided = bases.map((b) => b.questions.map((q) => ({ q, p: oof.get(q) ?? pOf(b, q) })));
  const points = Array.from({ length: 61 }, (_, i) => {
    const t = Math.round((0.2 + i * 0.01) * 100) / 100;
    const per = decided.map((d) => metrics(d.map(({ q, p }) => ({ q, ranking: [], sources: p >= t ? [''] : [], needsHuman: p < t }))));
    return { t, balanced: avg(per, 'needsHumanBalanced'), falseSource: avg(per, 'falseSource') };
  });
  const point = chooseThreshold(points, TARGETS);
  log(`l2 ${choice.l2}, out-of-fold log-loss ${choice.logLoss.toFixed(3)}; threshold ${point.t}: out-of-fold balanced ${point.balanced.toFixed(3)}, false-source ${point.falseSource.toFixed(3)}`);
  // High confidence: above the threshold and above 40 % of the answerable messages' out-of-fold probabilities.
  const answerable = samples.flatMap((s, i) => (s.y === 1 ? [choice.oof[i]!] : [])).sort((a, b) => a - b);
  const high = Math.round(Math.max(point.t + 0.1, answerable[Math.floor(answerable.length * 0.4)] ?? 0.8) * 1000) / 1000;
  return { ...model, threshold: point.t, high };
}

const avg = (ms: Metrics[], key: keyof Metrics) => ms.reduce((n, m) => n + (m[key] as number), 0) / ms.length;

interface LeftOut {
  base: Base;
  ours: Metrics;
  bm25: Metrics;
  model: DecisionModel;
}

/** Each base left out in turn: fitted on the others, measured on it. */
async function leaveOneOut(bases: Base[], features = FEATURES, log?: (line: string) => void): Promise<LeftOut[]> {
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

async function main() {
  const bases = loadBases();
  const args = process.argv.slice(2);
  if (args.includes('--compare')) {
    for (const features of CANDIDATES) {
      const results = await leaveOneOut(bases, features);
      const m = results.map((r) => r.ours);
      console.log(`${features.join(',')}: recall@1 ${avg(m, 'recall1').toFixed(3)}, balanced ${results.map((r) => r.ours.needsHumanBalanced.toFixed(3)).join('/')}, false-source ${results.map((r) => r.ours.falseSource.toFixed(3)).join('/')}, follow-ups ${avg(m, 'followUp').toFixed(3)}`);
    }
    return;
  }
  console.log(`bases: ${bases.map((b) => `${b.name} ${b.index.size} articles, ${b.questions.length} messages`).join('; ')}`);
  const results = await leaveOneOut(bases, FEATURES, (line) => console.log(`  fit: ${line}`));
  console.log(`\n${HEADER}`);
  for (const r of results) {
    console.log(row(r.base.name, `agent (threshold ${r.model.threshold})`, r.ours));
    console.log(row(r.base.name, 'BM25 baseline', r.bm25));
  }
  if (args.includes('--set-b')) {
    const setB = loadSetB(bases[0]!);
    const others = bases.slice(1);
    const model = fit(others);
    const threshold = tuneBaseline(others);
    console.log(row(setB.name, 'agent', metrics(await Promise.all(setB.questions.map((q) => ours(setB, q, model))))));
    console.log(row(setB.name, 'BM25 baseline', metrics(setB.questions.map((q) => baseline(setB, q, threshold)))));
  }
  const failures = args.indexOf('--failures');
  if (failures >= 0) {
    const r = results.find((x) => x.base.name.startsWith(args[failures + 1] ?? ''))!;
    for (const q of r.base.questions) {
      const o = await ours(r.base, q, r.model);
      const ok = q.needsHuman ? o.needsHuman : !o.needsHuman && (q.expected.length === 0 || q.expected.includes(o.sources[0] ?? ''));
      if (!ok) console.log(`${q.id} ${q.kind} nh=${q.needsHuman}->${o.needsHuman} exp=${q.expected} got=${o.sources.slice(0, 3)} rank=${o.ranking.slice(0, 2)} :: ${q.turns.join(' || ')}`);
    }
  }
  if (args.includes('--fit')) {
    const model = fit(bases, FEATURES, (line) => console.log(`  fit on all bases: ${line}`));
    console.log('fitted on all bases:', JSON.stringify(model));
  }
  console.log(`\ncurrent model (${JSON.stringify(DEFAULT_MODEL.threshold)}) is what the API uses; the rows above are each fitted without their base.`);
}

await main();
