import { normalize } from './text.js';

/** Why a message needs a person whatever the knowledge says. */
export type HumanIntent = 'human_requested' | 'account_action';

/** Asking for a person. */
const HUMAN = [
  /\b(talk|speak|chat|connect|put|transfer|escalate|get|reach|contact|call|phone)\b[^.?!]{0,40}\b(human|person|people|agent|someone|somebody|representative|rep|operator|manager|supervisor|staff|support team|support person|customer service|real)\b/,
  /\b(real|actual|live) (human|person|agent|people|support)\b/,
  /\bhuman (being|agent|support|please)\b/,
  /\b(not|no|stop)\b[^.?!]{0,20}\b(bot|robot|ai|automated|machine)\b/,
  /^\s*(human|agent|operator|representative)\s*[.!?]*\s*$/,
  /\b(call|ring) me\b/,
];

/** Things only staff can do on the customer's own account, or that must not be left to a bot. */
const ACCOUNT_ACTION = [
  /\brefund\b/,
  /\b(charged|billed|paid) (me )?(twice|two times|double|2 times)\b/,
  /\bdouble[- ]?(charged|charge|billed|billing)\b/,
  /\bcharge ?back\b/,
  /\b(dispute|unauthori[sz]ed)\b[^.?!]{0,30}\b(charge|payment|transaction)\b/,
  /\b(hacked|compromised|breach|breached|stolen)\b/,
  /\b(locked|lock(ed)?) out\b/,
  /\bunlock (my|our|the) account\b/,
  /\b(gdpr|ccpa|data subject|dsar|privacy)\b[^.?!]{0,20}\brequests?\b/,
  /\b(right to be forgotten|right of erasure|right to erasure)\b/,
  /\b(delete|erase|remove|wipe)\b[^.?!]{0,30}\b(all )?(my|our) (personal )?(data|information|info)\b/,
  /\b(lawyer|legal action|lawsuit|sue|subpoena|court order)\b/,
  /\b(change|transfer)\b[^.?!]{0,30}\b(billing owner|account owner|ownership)\b/,
];

/** The intent that makes a person necessary, if the message has one. */
export function humanIntent(message: string): HumanIntent | null {
  const text = normalize(message);
  if (HUMAN.some((p) => p.test(text))) return 'human_requested';
  if (ACCOUNT_ACTION.some((p) => p.test(text))) return 'account_action';
  return null;
}
