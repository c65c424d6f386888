/**
 * Follow-ups that no help article answers (or that say the answer did not help), sent after a first question the agent answered: what the thread's
 * reading does with a message that says nothing the article says ("who made this feature?" after "how do I
 * export invoices?"). Each base's answerable single-message questions the agent answers, then each of these
 * follow-ups in the same conversation. Every one answered is a wrong answer; those answered from the first answer's
 * article are the thread's doing. Written for this check (2026-11-26), not by the people who wrote the bases' messages.
 */
import { composeAnswer } from '../src/answers/compose-answer.js';
import { OfflineGenerator } from '../src/answers/generators/offline-generator.js';
import type { DecisionModel } from '../src/answers/decision/decide.js';
import type { Base } from './bases.js';
import { semanticOf } from './loko.js';

export const GENERIC_FOLLOW_UPS = [
  'do you ship to Canada?',
  'can you do it for me?',
  'who made this feature?',
  'can I pay you to set it up?',
  'which one do you like better?',
  'my boss says it is a bad idea, is he right?',
  // Telling the agent its answer did not help: answering again from the same article is the wrong reply.
  "no, that's not it",
  'still the same',
];

const generator = new OfflineGenerator();
const agent = { name: 'Eval', fallbackMessage: 'A person will help.', referralText: '', attachmentFallback: 'answer' as const };

/** Generic follow-ups tried, how many were answered (from any article), and how many from the first answer's article. */
export async function genericFollowUps(base: Base, model: DecisionModel): Promise<{ tried: number; answeredFromFirst: number; answered: number }> {
  let tried = 0;
  let answeredFromFirst = 0;
  let answered = 0;
  for (const q of base.questions.filter((x) => x.turns.length === 1 && !x.needsHuman && !x.attachmentText)) {
    const first = await composeAnswer({ index: base.index, message: q.turns[0]!, thread: [], agent, generator, model, semantic: semanticOf(base) });
    if (first.needsHuman) continue;
    for (const message of GENERIC_FOLLOW_UPS) {
      tried++;
      const next = await composeAnswer({ index: base.index, message, thread: [{ question: q.turns[0]!, reply: first.message }], agent, generator, model, semantic: semanticOf(base) });
      if (!next.needsHuman) answered++;
      if (!next.needsHuman && next.sources[0]?.externalId === first.sources[0]?.externalId) answeredFromFirst++;
    }
  }
  return { tried, answeredFromFirst, answered };
}
