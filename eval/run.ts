/**
 * `npm run eval [-- --fit] [-- --set DIR]`: the answer agent's quality on an evaluation set (by default
 * eval/set-a: an invented help centre of 104 articles and 210 customer questions), per half, next to a plain BM25 baseline.
 * The training questions are set A's "tune" half and eval/set-c (230 more, written later for fitting only);
 * "test" is held out. Then eval/set-b (116 more questions over the same articles, never used for tuning), all of it held out.
 * --fit: fits the decision model on the training questions and prints its coefficients (to paste into
 * src/answers/retrieval/decide.ts); the metrics then use the fitted model.
 * --tune: reports the training questions only (what to run while tuning). --failures: lists their
 * failures (never the held-out ones').
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeAnswer } from '../src/answers/compose-answer.js';
import { OfflineGenerator } from '../src/answers/generators/offline-generator.js';
import { type DecisionModel, DEFAULT_MODEL, probability } from '../src/answers/retrieval/decide.js';
import { humanIntent } from '../src/answers/retrieval/intents.js';
import { KnowledgeIndex, prepareArticle } from '../src/answers/retrieval/knowledge-index.js';
import { type Features, retrieve } from '../src/answers/retrieval/retrieve.js';
import { Bm25 } from './baseline-bm25.js';
import { chooseByCrossValidation, chooseThreshold, fitModel, type Sample } from './fit-decision.js';

interface Article {
  externalId: string;
  title: string;
  body: string;
  url?: string;
}
interface Question {
  id: string;
  kind: string;
  half: 'tune' | 'test';
  turns: string[];
  expected: string[];
  needsHuman: boolean;
}

const setArg = process.argv.indexOf('--set');
const dir = path.resolve(import.meta.dirname, setArg > 0 ? process.argv[setArg + 1]! : 'set-a');
const articles = JSON.parse(readFileSync(path.join(dir, 'articles.json'), 'utf8')) as Article[];
const questions = JSON.parse(readFileSync(path.join(dir, 'questions.json'), 'utf8')) as Question[];
/** Sets of questions over the same articles, written after set A had been tuned on: held out entirely, baseline threshold from the training questions. */
const HELD_OUT_SETS = setArg > 0 ? [] : [{ name: 'set B (held out)', file: path.resolve(import.meta.dirname, 'set-b/questions.json') }];
/** Training questions over the same articles, written later than set A's and used only for fitting, with set A's tune half. */
const TRAINING_SETS = setArg > 0 ? [] : [{ name: 'set C (training)', file: path.resolve(import.meta.dirname, 'set-c/questions.json') }];
const index = new KnowledgeIndex(articles.map((a, i) => prepareArticle({ id: i + 1, externalId: a.externalId, title: a.title, body: a.body, url: a.url ?? null })));
const bm25 = new Bm25(articles);
const generator = new OfflineGenerator();
const agent = { name: 'Eval', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };

interface Outcome {
  q: Question;
  ranking: string[];
  sources: string[];
  needsHuman: boolean;
}

async function ours(q: Question, model: DecisionModel): Promise<Outcome> {
  const thread: { question: string; reply: string }[] = [];
  let needsHumanBefore = false;
  let last;
  for (const message of q.turns) {
    last = await composeAnswer({ index, message, thread, agent, generator, model, conversationNeedsHuman: needsHumanBefore });
    thread.push({ question: message, reply: last.message });
    needsHumanBefore ||= last.needsHuman;
  }
  return { q, ranking: last!.ranking, sources: last!.sources.map((s) => s.externalId), needsHuman: last!.needsHuman };
}

function baseline(q: Question, threshold: number): Outcome {
  const { ranking, top } = bm25.search(q.turns.at(-1)!);
  const needsHuman = top < threshold;
  return { q, ranking, sources: needsHuman ? [] : ranking.slice(0, 1), needsHuman };
}

interface Metrics {
  n: number;
  recall1: number;
  recall3: number;
  mrr: number;
  needsHumanBalanced: number;
  falseSource: number;
  followUp: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const RANKED_KINDS = new Set(['direct', 'paraphrase', 'typo', 'smalltalk', 'multi']);

function metrics(outcomes: Outcome[]): Metrics {
  const ranked = outcomes.filter((o) => RANKED_KINDS.has(o.q.kind) && o.q.expected.length);
  const rank = (o: Outcome) => o.ranking.findIndex((id) => o.q.expected.includes(id));
  const yes = outcomes.filter((o) => o.q.needsHuman);
  const no = outcomes.filter((o) => !o.q.needsHuman);
  const outOfScope = outcomes.filter((o) => o.q.kind === 'out_of_scope');
  const followUps = outcomes.filter((o) => o.q.kind === 'followup');
  return {
    n: outcomes.length,
    recall1: mean(ranked.map((o) => (rank(o) === 0 ? 1 : 0))),
    recall3: mean(ranked.map((o) => (rank(o) >= 0 && rank(o) < 3 ? 1 : 0))),
    mrr: mean(ranked.map((o) => (rank(o) >= 0 ? 1 / (rank(o) + 1) : 0))),
    needsHumanBalanced: (mean(yes.map((o) => (o.needsHuman ? 1 : 0))) + mean(no.map((o) => (o.needsHuman ? 0 : 1)))) / 2,
    falseSource: mean(outOfScope.map((o) => (o.sources.length ? 1 : 0))),
    followUp: mean(
      followUps.map((o) =>
        o.q.needsHuman ? (o.needsHuman ? 1 : 0) : !o.needsHuman && o.sources.length > 0 && o.q.expected.includes(o.sources[0]!) ? 1 : 0,
      ),
    ),
  };
}

/** The baseline's threshold that maximises balanced needs_human accuracy on the given questions. */
function tuneBaseline(qs: Question[]): number {
  let best = { t: 0, score: -1 };
  for (let t = 0; t <= 1; t += 0.01) {
    const score = metrics(qs.map((q) => baseline(q, t))).needsHumanBalanced;
    if (score > best.score) best = { t, score };
  }
  return best.t;
}

/** Features of a question's last turn, with its thread as context, as composeAnswer computes them. */
function featuresOf(q: Question): Features | null {
  const context = q.turns.slice(0, -1);
  const r = retrieve(index, { message: q.turns.at(-1)!, context });
  return r.candidates.length ? r.features : null;
}

interface TuneSample extends Sample {
  q: Question;
}

/** Samples of the decision: a question's last turn (with its thread) and whether it is in scope. */
function samplesOf(qs: Question[]): TuneSample[] {
  return qs
    .filter((q) => q.kind !== 'human_request' && !humanIntent(q.turns.at(-1)!))
    .map((q) => ({ q, x: featuresOf(q), y: q.needsHuman ? 0 : 1 }))
    .filter((s): s is TuneSample => s.x !== null);
}

/** Feature sets cross-validation chooses among: each a reading of "does the best article cover the message". */
const CANDIDATES: (keyof Features)[][] = [
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownShare', 'length'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownShare', 'length', 'keyCoverage', 'capabilityGap'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownShare', 'length', 'capabilityGap'],
  ['top', 'keyCoverage', 'titleCoverage', 'margin', 'unknownShare', 'capabilityGap'],
  ['top', 'titleCoverage', 'margin', 'unknownShare'],
  ['top', 'unknownShare'],
  // Unknown words split: nouns (another subject) apart from the rest (the customer's story).
  ['top', 'titleCoverage', 'margin', 'unknownNouns'],
  ['top', 'titleCoverage', 'margin', 'unknownNouns', 'unknownShare'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'unknownShare', 'length'],
  ['top', 'unknownNouns'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownShare', 'unknownNouns', 'length', 'keyCoverage', 'capabilityGap'],
  ['top', 'coverage', 'titleCoverage', 'margin', 'unknownNouns', 'length', 'keyCoverage', 'capabilityGap'],
];

/** The targets (held-out half): balanced needs_human accuracy, out-of-scope questions answered with a source. */
const TARGETS = { balanced: 0.85, falseSource: 0.1 };

/**
 * Picks the feature set and L2 by cross-validation inside the tune half, fits them on the whole
 * tune half, then picks the threshold on the out-of-fold probabilities (every tune question as
 * composeAnswer decides it, intents included): the one that falls least short of the targets.
 */
function fit(qs: Question[]): DecisionModel {
  const samples = samplesOf(qs);
  const choice = chooseByCrossValidation(samples, CANDIDATES, [0.003, 0.03, 0.3], console.log);
  console.log(`chosen by cross-validation on the training questions: ${choice.features.join(', ')} (l2 ${choice.l2}, out-of-fold log-loss ${choice.logLoss.toFixed(3)})`);
  const model = fitModel(samples, choice);
  const oof = new Map(samples.map((s, i) => [s.q.id, choice.oof[i]!]));
  // Questions outside the samples: an intent or nothing retrieved needs a human; a request for a
  // person that no intent caught meets the model (fitted without it).
  const pOf = (q: Question) => {
    const x = humanIntent(q.turns.at(-1)!) ? null : featuresOf(q);
    return x ? probability(x, model) : 0;
  };
  const decided = qs.map((q) => ({ q, p: oof.get(q.id) ?? pOf(q) }));
  const points = Array.from({ length: 61 }, (_, i) => {
    const t = Math.round((0.2 + i * 0.01) * 100) / 100;
    const m = metrics(decided.map(({ q, p }) => ({ q, ranking: [], sources: p >= t ? [''] : [], needsHuman: p < t })));
    return { t, balanced: m.needsHumanBalanced, falseSource: m.falseSource };
  });
  const point = chooseThreshold(points, TARGETS);
  const bestBalanced = points.reduce((a, b) => (b.balanced > a.balanced ? b : a));
  const within = points.find((p) => p.falseSource <= TARGETS.falseSource);
  for (const [name, p] of [['best balanced', bestBalanced], ['first within the false-source bound', within]] as const) {
    if (p) console.log(`out of fold, ${name}: threshold ${p.t}, balanced ${p.balanced.toFixed(3)}, false-source ${p.falseSource.toFixed(3)}`);
  }
  console.log(`threshold ${point.t}: out-of-fold balanced needs_human ${point.balanced.toFixed(3)}, false-source rate ${point.falseSource.toFixed(3)}`);
  // High confidence: above the threshold and above 40 % of the answerable questions' out-of-fold probabilities.
  const answerable = samples.flatMap((s, i) => (s.y === 1 ? [choice.oof[i]!] : [])).sort((a, b) => a - b);
  const high = Math.round(Math.max(point.t + 0.1, answerable[Math.floor(answerable.length * 0.4)] ?? 0.8) * 1000) / 1000;
  return { ...model, threshold: point.t, high };
}

const fmt = (n: number) => (Number.isNaN(n) ? '  -  ' : n.toFixed(3));

async function main() {
  let model = DEFAULT_MODEL;
  const tune = questions.filter((q) => q.half === 'tune');
  const test = questions.filter((q) => q.half === 'test');
  const training = TRAINING_SETS.map((set) => ({ name: set.name, qs: JSON.parse(readFileSync(set.file, 'utf8')) as Question[] }));
  const fitOn = [...tune, ...training.flatMap((set) => set.qs)];
  if (process.argv.includes('--fit')) {
    model = fit(fitOn);
    console.log('fitted on the training questions:', JSON.stringify(model));
  }
  const threshold = tuneBaseline(fitOn);
  const heldOut = process.argv.includes('--tune') ? [] : HELD_OUT_SETS.map((set) => ({ name: set.name, qs: JSON.parse(readFileSync(set.file, 'utf8')) as Question[] }));
  const more = heldOut.map((set) => `; ${set.name}: ${set.qs.length} questions`).join('');
  const trained = training.map((set) => `; ${set.name}: ${set.qs.length} questions`).join('');
  console.log(`${articles.length} articles, ${questions.length} questions (tune ${tune.length}, test ${test.length})${trained}${more}; baseline threshold ${threshold.toFixed(2)} (tuned on the training questions)\n`);
  console.log('| half | system | recall@1 | recall@3 | MRR | needs_human (balanced) | false-source rate | follow-up accuracy |');
  console.log('|---|---|---|---|---|---|---|---|');
  // --tune: the tune half only, so tuning never shows the held-out half.
  const halves: [string, Question[]][] = [['tune', tune], ...training.map((set): [string, Question[]] => [set.name, set.qs])];
  if (!process.argv.includes('--tune')) halves.push(['test (held out)', test], ...heldOut.map((set): [string, Question[]] => [set.name, set.qs]));
  for (const [name, qs] of halves) {
    const a = metrics(await Promise.all(qs.map((q) => ours(q, model))));
    const b = metrics(qs.map((q) => baseline(q, threshold)));
    for (const [system, m] of [['agent', a], ['BM25 baseline', b]] as const) {
      console.log(`| ${name} | ${system} | ${fmt(m.recall1)} | ${fmt(m.recall3)} | ${fmt(m.mrr)} | ${fmt(m.needsHumanBalanced)} | ${fmt(m.falseSource)} | ${fmt(m.followUp)} |`);
    }
  }
  if (process.argv.includes('--failures')) {
    for (const q of fitOn) {
      const o = await ours(q, model);
      const ok = q.needsHuman ? o.needsHuman : !o.needsHuman && (q.expected.length === 0 || q.expected.includes(o.ranking[0]!));
      if (!ok) console.log(`${q.id} ${q.kind} nh=${q.needsHuman}->${o.needsHuman} exp=${q.expected} got=${o.ranking.slice(0, 3)} :: ${q.turns.join(' || ')}`);
    }
  }
}

await main();
