import { loadBases } from './bases.js';
import { fit, ours } from './loko.js';
import { composeAnswer } from '../src/answers/compose-answer.js';
import { OfflineGenerator } from '../src/answers/generators/offline-generator.js';
const bases = loadBases();
const agent = { name: 'Eval', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };
for (const b of bases) {
  const model = fit(bases.filter((x) => x !== b));
  for (const q of b.questions.filter((q) => q.kind === 'followup')) {
    const first = await composeAnswer({ index: b.index, message: q.turns[0]!, thread: [], agent, generator: new OfflineGenerator(), model });
    const o = await ours(b, q, model);
    const ok = q.needsHuman ? o.needsHuman : !o.needsHuman && q.expected.includes(o.sources[0] ?? '');
    console.log(`${ok ? 'OK ' : 'BAD'} ${q.id} nh=${q.needsHuman}->${o.needsHuman} exp=${q.expected} got=${o.sources.slice(0, 2)} t1=${first.needsHuman ? 'H:' : ''}${first.sources[0]?.externalId} :: ${q.turns.join(' || ')}`);
  }
}
