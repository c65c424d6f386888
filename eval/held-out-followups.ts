/**
 * `npx tsx eval/held-out-followups.ts`: two-turn conversations over set A's articles written by someone who read only
 * the articles (eval/set-a/followups-heldout.json, 2026-12-08; never fitted or tuned on), asked as `npm run eval`
 * asks set A left out (the decision fitted on GNOME and Python). Issue #47 asks for two-turn follow-ups ≥ 0.40 on an
 * unseen help centre; this is the nearest we can measure here. Prints each conversation's outcome and the counts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadBases, type Question } from './bases.js';
import { fit, ours } from './loko.js';
import { metrics } from './metrics.js';
import { probability } from '../src/answers/decision/decide.js';

const file = path.resolve(import.meta.dirname, 'set-a/followups-heldout.json');
const conversations = (JSON.parse(readFileSync(file, 'utf8')) as Question[]).map((q) => ({ ...q, id: `set-a/${q.id}` }));
const bases = await loadBases();
const setA = bases.find((b) => b.name.startsWith('set A'))!;
const model = fit(bases.filter((b) => b !== setA));
const outcomes = await Promise.all(conversations.map((q) => ours(setA, q, model)));
const tally = new Map<string, number>();
for (const o of outcomes) {
  const first = o.sources[0] ?? '-';
  const verdict = o.q.needsHuman
    ? o.needsHuman ? 'for a person: handed over' : 'for a person: answered'
    : !o.needsHuman ? (o.q.expected.includes(first) ? 'answerable: answered from a right article' : 'answerable: answered from another article') : 'answerable: handed over';
  tally.set(verdict, (tally.get(verdict) ?? 0) + 1);
  const p = o.features ? probability(o.features, model).toFixed(2) : '-';
  console.log(`${o.q.id} ${verdict} (${o.reason ?? 'answered'}, p ${p}; first source ${first}; expected ${o.q.expected.join(',') || '-'}) :: ${o.q.turns.join(' || ')}`);
}
const m = metrics(outcomes);
console.log(`\n${conversations.length} conversations, threshold ${model.threshold}: follow-ups right ${m.followUp.toFixed(3)} (second turn answered from a right article, or handed over when it needs a person)`);
for (const [k, n] of [...tally].sort()) console.log(`  ${k}: ${n}`);
