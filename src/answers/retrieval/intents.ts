import { normalize, stemWord, words } from './text.js';

/** Why a message needs a person whatever the knowledge says. */
export type HumanIntent = 'human_requested' | 'account_action';

/** Asking for a person. */
const HUMAN = [
  // A person of the vendor's ("a", "your", "some", "a real" person), not a named third party: "how do I contact
  // the person who maintains a package" asks how to do something and is not a request for the vendor's staff.
  /\b(talk|speak|chat|connect|put|transfer|escalate|get|reach|contact|call|phone)\b( (me|us|this|it))?( (to|with|through to|through))? (a|an|your|some|any|one of your|someone|somebody|anyone|anybody|real|actual|live)\b[^.?!]{0,25}\b(human|person|people|agent|someone|somebody|representative|rep|operator|manager|supervisor|staff|support team|support person|customer service|real)\b/,
  /\b(talk|speak|chat) (to|with) (someone|somebody|anyone|anybody|support|customer service|your (support|team|staff))\b/,
  /\b(transfer|escalate|connect|put) (me|us|this|it)\b[^.?!]{0,20}\b(human|person|agent|someone|somebody|support|representative|manager|supervisor)\b/,
  /\b(real|actual|live) (human|person|agent|people|support)\b/,
  /\bhuman (being|agent|support|please)\b/,
  /\b(not|no|stop)\b[^.?!]{0,20}\b(bot|robot|ai|automated|machine)\b/,
  /^\s*(human|agent|operator|representative)\s*[.!?]*\s*$/,
  /\b(call|ring) me\b/,
  /\b(someone|somebody|anyone|anybody|a person)\b[^.?!]{0,20}\b(contact|email|get back to|reach out to) me\b/,
  /\bis (there )?(anyone|anybody|someone) (there|real|human)\b/,
  // Asking the vendor's people to do something ("can one of your staff merge our accounts", "can you do it for me?").
  /\b(one of your|a member of your|your) (staff|employees)\b/,
  /\b(can|could|would|will) (you|someone|somebody|anyone|one of you)( please)? (do|fix|handle|change|set|sort|configure|install|update|delete|cancel|move|add|remove)( up| out)? (it|this|that|them|these|those)( up| out)?( \w+)? for (me|us)\b/,
  /\b(file|make|lodge|raise|submit) (a |an )?(formal )?complaint\b|\b(i|we) (want|wish|would like) to complain\b/,
];

/** Things only staff can do on the customer's own account, or that must not be left to a bot. */
const ACCOUNT_ACTION = [
  /\brefund\b/,
  /\b(want|get|need|give|have)\b[^.?!]{0,20}\bmoney back\b/,
  /\b(charged|billed|paid) (me )?(twice|two times|double|2 times)\b/,
  /\bdouble[- ]?(charged|charge|billed|billing)\b/,
  /\bcharge ?back\b/,
  /\b(overcharged|over-charged|overbilled|over-billed)\b/,
  /\b(wrong|incorrect|unexpected|unknown|unrecogni[sz]ed)\b[^.?!]{0,15}\bcharges?\b/,
  /\b(charged|billed)\b[^.?!]{0,30}\b(after|even though|although|despite)\b[^.?!]{0,30}\bcancel/,
  /\b(dispute|unauthori[sz]ed)\b[^.?!]{0,30}\b(charge|payment|transaction)\b/,
  /\b(hacked|compromised|breach|breached|stolen|phishing|fraud|fraudulent)\b/,
  /\b(someone|somebody)( else)?\b[^.?!]{0,20}\b(logged|signed|is using|accessed|got into|broke into)\b[^.?!]{0,20}\b(my|our) account\b/,
  /\b(suspicious|unrecogni[sz]ed|strange)\b[^.?!]{0,15}\b(login|log-in|sign-in|logins|activity|access)\b/,
  // Out of an account the vendor holds; "locked out of my laptop" is a question the knowledge may answer.
  /\blocked out of (my|our|the) ([\w-]+ )?account\b/,
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

/** Scripts written without spaces between words: a topic in them is found as a run of characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * The first of an agent's hand-off topics ("refund", "legal notice") the message names: its words in
 * a row, each in any form of it ("refunds", "refunded"), in any case; in a script written without
 * spaces, its characters in a row. Null when none.
 */
export function handoffTopic(message: string, topics: readonly string[]): string | null {
  if (!topics.length) return null;
  const text = normalize(message);
  const stems = words(text).map(stemWord);
  for (const topic of topics) {
    if (UNSPACED.test(topic)) {
      if (text.includes(normalize(topic).replace(/\s+/g, ''))) return topic;
      continue;
    }
    const wanted = words(topic).map(stemWord);
    if (!wanted.length) continue;
    for (let i = 0; i + wanted.length <= stems.length; i++) {
      if (wanted.every((w, j) => stems[i + j] === w)) return topic;
    }
  }
  return null;
}

/** What a message made only of pleasantries says: it asks nothing, so nothing is looked up and nobody is needed. */
export type Pleasantry = 'greeting' | 'thanks' | 'goodbye';

const GREETING = new Set(['hi', 'hello', 'hey', 'hiya', 'howdy', 'morning', 'afternoon', 'evening', 'yo']);
const THANKS = new Set([
  'thanks', 'thank', 'thankyou', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate', 'ok', 'okay', 'k', 'kk', 'great', 'cool',
  'perfect', 'awesome', 'brilliant', 'excellent', 'nice', 'lovely', 'wonderful', 'amazing', 'fantastic', 'super', 'worked',
  'works', 'fixed', 'solved', 'sorted', 'helped', 'helpful', 'lifesaver', 'star', 'legend', 'lol', 'haha', 'yes', 'yep',
  'yeah', 'alright', 'gotcha', 'understood',
]);
const GOODBYE = new Set(['bye', 'goodbye', 'cya', 'later', 'night', 'goodnight', 'care', 'day', 'weekend']);
/** Words that go with pleasantries ("you guys are awesome", "thanks a lot, that fixed it") and say nothing else. */
const FILLER = new Set([
  'a', 'an', 'the', 'that', 'it', 'this', 'you', 'youre', 'are', 'is', 'was', 'so', 'very', 'really', 'all', 'for', 'there', 'i',
  'have', 'good', 'take', 'team', 'everyone', 'guys', 'folks', 'mate', 'much', 'lot', 'many', 'tons', 'again', 'oh', 'ah', 'now',
  'see', 'got', 'makes', 'sense', 'help', 'right', 'and', 'your',
]);

/**
 * The pleasantry a message is, when every word of it belongs to one ("hi!", "thanks, that worked!", "ok great, thank
 * you so much", "bye"): at most 10 words, no question mark, and none of a question's or a problem's words ("how",
 * "but", "didnt"): "thanks, but it still fails" asks something. Null otherwise.
 */
export function pleasantry(message: string): Pleasantry | null {
  if (message.includes('?')) return null;
  const ws = words(message);
  if (!ws.length || ws.length > 10 || !ws.every((w) => GREETING.has(w) || THANKS.has(w) || GOODBYE.has(w) || FILLER.has(w))) return null;
  if (ws.some((w) => GOODBYE.has(w))) return 'goodbye';
  if (ws.some((w) => THANKS.has(w))) return 'thanks';
  return ws.some((w) => GREETING.has(w)) ? 'greeting' : null;
}
