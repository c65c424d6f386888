import type { Features } from '../retrieval/features.js';

/** right, wrong (another article answers it), needs_human (a person should have), should_answer (handed over, but the cited article was right). */
export type Verdict = 'right' | 'wrong' | 'needs_human' | 'should_answer';

/** Turns handed over before the decision was asked (a request for a person, a hand-off topic, an unreadable file). A confirmed hand-off (`staff_handoff`) was weighed like any message, so a verdict on it teaches the decision: their verdicts teach it nothing. */
export const NOT_DECIDED: ReadonlySet<string> = new Set(['human_requested', 'account_action', 'handoff_topic', 'attachment_unreadable']);

/** A turn as a verdict on it reads it: what the agent did, why, and the features the decision weighed (null: none stored). */
export interface JudgedTurn {
  needsHuman: boolean;
  reason: string | null;
  features: Features | null;
}

/**
 * Whether the turn handed the message over without answering it. A turn after an earlier hand-off
 * (`earlier_turn`) carries a real answer, so a verdict on it is a verdict on that answer.
 */
export const handedOver = (turn: { needsHuman: boolean; reason: string | null }) => turn.needsHuman && turn.reason !== 'earlier_turn';

/** Why a verdict on this turn cannot teach the decision, whatever it says; null when it can. */
export function undecided(turn: JudgedTurn): string | null {
  if (turn.reason && NOT_DECIDED.has(turn.reason)) {
    return 'The turn was handed over before the decision was asked (a request for a person, an account action, a hand-off topic or an unreadable attachment): the decision learns nothing from it.';
  }
  if (!turn.features) return 'The turn has no stored decision features (nothing was retrieved, or it was answered before they were kept): the decision cannot learn from it.';
  return null;
}

/**
 * What a verdict that counts teaches the decision: whether the agent should have answered the turn
 * (the article that answers is stored with the verdict, and the message becomes its phrasing).
 * - right: an answer was right (answer), or a hand-off was right (hand over);
 * - wrong: the named article answers it — counted (as answer) only where that article ranks first;
 * - should_answer: handed over, but its first source was right (answer);
 * - needs_human: it should have gone to a person (hand over).
 * The server (learning/turn-feedback.ts) and the simulated staff of `npm run eval` (eval/labels.ts) both learn by it.
 */
export function answerable(verdict: Verdict, turn: { needsHuman: boolean; reason: string | null }): boolean {
  if (verdict === 'needs_human') return false;
  if (verdict === 'wrong' || verdict === 'should_answer') return true;
  return !handedOver(turn);
}
