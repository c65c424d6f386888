import { normalize, stemWord, words } from '../retrieval/text.js';

/** Why a message needs a person whatever the knowledge says. */
export type HumanIntent = 'human_requested' | 'account_action';

/** Asking for a person. */
const HUMAN = [
  // A person of the vendor's ("a", "your", "some", "a real" person), not a named third party: "how do I contact
  // the person who maintains a package" asks how to do something and is not a request for the vendor's staff.
  /\b(talk|speak|chat|connect|put|transfer|get(?! (a|an) (call|notification|email|message|alert|ping|text|reminder|request)\b)|reach|contact|call|phone)\b( (me|us|this|it))?( (to|with|through to|through))? (a|an|your|some|any|one of your|someone|somebody|anyone|anybody|real|actual|live)\b[^.?!]{0,25}\b(human|person|people|agent|someone|somebody|representative|rep|operator|manager|supervisor|staff|support team|support person|customer service|real)\b/,
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
  /\b(can|could|would|will) (you|someone|somebody|anyone|one of you)( please)? (do|fix|handle|change|set|sort|configure|install|update|delete|cancel|move|add|remove)( up| out)? (it|this|that|them|these|those)( up| out)?( all| please| instead| now| today| quickly| asap| manually)? for (me|us)\b/,
  /\b(can|could|may) (i|we) (get|have|speak to|talk to) (someone|somebody|a person|a human)\b(?! (added|invited|removed|else|to (add|invite|join|see|access|edit|view|use|sign)))/,
  /\b(file|make|lodge|raise|submit) (a |an )?(formal )?complaint\b|\b(i|we) (want|wish|would like) to complain\b/,
];

/**
 * A message that asks how, where, what or why, or whether it may do something: in many products a staff member, a
 * technician, "one of your team", escalating or acting on someone's behalf are things the product does ("how do I add
 * a staff member?", "can I escalate my ticket automatically?"), so the requests below count only outside such a
 * question.
 */
const ASKS_HOW = /^\W*(how|where|what|whats|why|when|which|who|is it possible|is there a way|can (i|we)|could (i|we)|do (i|we|you)|does|should (i|we))\b/;
/** A case put hypothetically ("what happens if my card is stolen?", "in case the owner is away"): a question, not a request. */
const HYPOTHETICAL = /\b(what happens|what if|if|in case|once)\b/;

/** Asking the vendor's people to act or get in touch, in words a how-to question also uses (see ASKS_HOW). */
const REQUESTS_OF_STAFF: [RegExp, RegExp?][] = [
  // A named part of the vendor: "connect me with customer service", "put us in touch with your sales team".
  [/\b(connect|put|transfer|get|send) (me|us) (to|with|through to|over to) (customer (service|support|care)|((the|your) )?(support|sales|billing|accounts?|technical|tech|customer success|customer service) (team|department|people|staff)|support|sales|billing)\b/],
  [/\b(put|get) (me|us) in touch with\b/],
  [/\b(talk|speak|chat) (to|with) (someone|somebody|anyone|a person) (from|in|on|at) (your|the (support|sales|billing))\b/],
  // A call back, unless a machine is to call ("can your webhook call us back when an export finishes?").
  [/\b(give|gimme) (me|us) a (call|ring|phone call)\b|\bcall (me|us) back\b/, /\b(webhooks?|api|server|endpoint|integration|callback|script|bot|app|zap)\b/],
  [/\b(a|request a|want a|like a|need a|have a|get a) call ?back\b/, /\b(webhooks?|api|server|endpoint|url|function|script|code|thread|method)\b/],
  [/\b(have|get|ask) (someone|somebody)( from [\w ]{1,20})? (to )?(phone|call|ring|email|contact) (me|us)\b/],
  [/\b(pass|forward|hand) (this|it|me|us)( on| over)? to (a|an|your) (human|person|agent|colleague|team|developers|engineers|support team)\b/],
  // "could one of your team…", "I need someone from your side to look at it", "is there someone from support…".
  [/\b(can|could|would|will|please|have|get|need|want|send|let|is there)\b[^.?!]{0,20}\b(one of your (team|people|technicians|engineers|agents|developers|staff|support \w+)|(someone|somebody) (from|on|in) (support|your (\w+ )?(team|staff|side|company|department|support)))\b/],
  [/\b(need|want|would like|'d like|have|send|get|can|could|will|would)\b (a|an|some|one) (staff member|member of staff|member of your (team|staff)|technician|support agent|support person|support engineer|customer service (agent|rep|representative))\b[^.?!]{0,15}\b(to|look|call|help|check|fix|reset|remote|take)\b/],
  [/\b(can|could|would|will|please)\b (you|someone|somebody|one of you|one of your \w+|your \w+( team)?)\b[^.?!]{0,40}\bon (my|our) behalf\b/],
  [/^\W*please escalate\b|\bescalate (this|my (case|ticket|issue|request|complaint)|our (case|ticket|issue|request|complaint))\b(?! (automatically|after|when|if|to tier))/],
  [/\b(talk|speak|chat|get in touch|put me in touch) (to|with) (whoever|the person|someone|somebody) (who is |whos |that is )?in charge\b|\b(talk|speak) to whoever\b/],
];

/** Things only staff can do on the customer's own account, or that must not be left to a bot. */
const ACCOUNT_ACTION = [
  /\b(want|get|need|give|have)\b[^.?!]{0,20}\bmoney back\b/,
  /\b(charged|billed|paid) (me )?(twice|two times|double|2 times)\b/,
  /\bdouble[- ]?(charged|charge|billed|billing)\b/,
  /\bcharge ?back\b/,
  /\b(overcharged|over-charged|overbilled|over-billed)\b/,
  /\b(wrong|incorrect|unexpected|unknown|unrecogni[sz]ed)\b[^.?!]{0,15}\bcharges?\b/,
  /\b(charged|billed)\b[^.?!]{0,30}\b(after|even though|although|despite)\b[^.?!]{0,30}\bcancel/,
  /\b(dispute|unauthori[sz]ed)\b[^.?!]{0,30}\b(charge|payment|transaction)\b/,
  /\b(charged|billed|paid)\b[^.?!]{0,30}\b(by mistake|in error|by accident|accidentally|wrongly)\b/,
  /\b(please|can you|could you) (lock|disable|suspend|deactivate|block|freeze|close|delete) (my|our|the) (account|workspace|user)\b/,
  /\b(someone|somebody)( else)?\b[^.?!]{0,20}\b(logged|signed|is using|accessed|got into|broke into)\b[^.?!]{0,20}\b(my|our) account\b/,
  /\b(suspicious|unrecogni[sz]ed|strange)\b[^.?!]{0,15}\b(login|log-in|sign-in|logins|activity|access)\b/,
  // Out of an account the vendor holds; "locked out of my laptop" is a question the knowledge may answer.
  /\blocked out of (my|our|the) ([\w-]+ )?account\b/,
  /\bunlock (my|our|the) account\b/,
  /\b(gdpr|ccpa|data subject|dsar|privacy)\b[^.?!]{0,20}\brequests?\b/,
  /\b(right to be forgotten|right of erasure|right to erasure)\b/,
  /\b(delete|erase|remove|wipe)\b[^.?!]{0,30}\b(all )?(my|our) (personal )?(data|information|info)\b/,
  /\b(lawyer|legal action|lawsuit|sue|subpoena|court order)\b/,
  // Ownership moved by the vendor: asked of them, or to a named person. "How do I transfer ownership?" and the
  // search-box "transfer workspace ownership to another member" are questions the knowledge answers.
  /\b(please|can you|could you|would you|will you|kindly|(i|we) (need|want) you to)\b[^.?!]{0,10}\b(change|transfer|move|give)\b[^.?!]{0,30}\b(billing owner|account owner|workspace owner|ownership)\b/,
  /\b(change|transfer|move|give)\b[^.?!]{0,30}\b(billing owner|account owner|workspace owner|ownership)\b[^.?!]{0,30}\bto (me|us|[^\s@]+@[^\s@]+\.\w+)(?=\W|$)/,
  /\b(please|can you|could you|would you|kindly|(i|we) need you to)\b[^.?!]{0,10}\bmake (me|us)( the| a| an)?( new)? (owner|admin|administrator|billing owner|account owner)\b/,
  /\b(please|can you|could you|would you|kindly|(i|we) (need|want|would like|['’]d like) (you )?to)\b[^.?!]{0,10}\b(extend|prolong|lengthen) (my|our|the) (free )?trial\b(?! (feature|option|setting))/,
  // The vendor asked to do something to the account itself: "I need you to delete my account".
  /\b(i|we) (need|want) you to (delete|close|cancel|remove|reset|unlock|merge|restore|recover|refund|extend|reactivate) (my|our|the) (account|workspace|subscription|plan|data|trial|user)\b/,
  /\b(can|could) you( please)? (delete|close|cancel|remove|reset|unlock|merge|restore|recover|reactivate) (my|our) (account|workspace|subscription|plan|data)\b/,
];

/**
 * Account matters only staff can settle, unless the message asks a question about them (ASKS_HOW, HYPOTHETICAL): "what
 * is your refund policy?", "how do I refund a customer?", "can I get a refund?" (the policy answers it), "what happens if
 * my card is stolen?", "how do I know if my account was hacked?" are questions the knowledge answers.
 */
const ACCOUNT_MATTERS = [
  // A refund asked for; the policy asked about ("our refund policy", "do you offer a refund") is a question too.
  /\brefund\b(?![- ](policy|policies|terms|rules|period|window))(?<!\b(do|does) (you|they|\w+) (offer|give|do|provide|have|allow) ((a|an|any) )?refund)(?<!\bhow (do|does) (a )?refund)(?<!\bis there (a|any) refund)/,
  // Hacked, or credentials or data stolen; a stolen laptop or phone is a question of getting back in, which the knowledge answers.
  /\b(hacked|compromised|breach|breached|phishing|fraud|fraudulent)\b/,
  /\b(account|accounts|data|password|passwords|card|credentials|identity|details|login|logins|information|info|api keys?|keys?|tokens?|sessions?|2fa)\b[^.?!]{0,12}\b(was|were|has been|have been|got|is|are|being) stolen\b|\b(stole|stolen) (my|our) (api )?(account|data|password|card|credentials|identity|login|details|keys?|tokens?)\b/,
];

/**
 * An owner who cannot be reached: only the vendor can hand the account on. Not when put hypothetically, nor in a
 * question that asks for nothing ("our admin left the company, how do I become the owner?" the knowledge answers).
 */
const OWNER_UNREACHABLE =
  /\b(the|our|my) (only |previous |old |former |current )?(owner|admin|administrator|account owner|billing owner|workspace owner)\b[^.?!]{0,30}\b((left|quit|departed) (the |our )?(company|team|organi[sz]ation|business|firm|job)|left us|passed away|died|is gone|has gone|(is|are) (away|on leave|on \w+ leave)|(cant|can['’]t|cannot|can not) be reached|unreachable|(nobody|no one) can reach|(doesnt|doesn['’]t|does not) (answer|respond|reply)|not responding)\b/;

/** Words that ask the vendor to do something. */
const ASKS_VENDOR = /\b(please|can you|could you|would you|kindly|make me|make us)\b/;

/** The intent that makes a person necessary, if the message has one. */
export function humanIntent(message: string): HumanIntent | null {
  const text = normalize(message);
  if (HUMAN.some((p) => p.test(text))) return 'human_requested';
  const asksHow = ASKS_HOW.test(text);
  if (!asksHow && REQUESTS_OF_STAFF.some(([p, unless]) => p.test(text) && !unless?.test(text))) return 'human_requested';
  if (ACCOUNT_ACTION.some((p) => p.test(text))) return 'account_action';
  const hypothetical = HYPOTHETICAL.test(text);
  if (!asksHow && !hypothetical && ACCOUNT_MATTERS.some((p) => p.test(text))) return 'account_action';
  if (!hypothetical && OWNER_UNREACHABLE.test(text) && (ASKS_VENDOR.test(text) || !text.includes('?'))) return 'account_action';
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

/** Phrases read as one word first: "have a nice day" is a goodbye, "thank you" a thanks, "got it" an acknowledgement. */
const PHRASES: [RegExp, string][] = [
  [/\bhave an? (nice|good|great|lovely|wonderful) (day|one|evening|weekend|night)\b/g, ' bye '],
  [/\b(take care|see you( later| soon)?|talk (to you )?(later|soon)|good ?night)\b/g, ' bye '],
  [/\b(good (morning|afternoon|evening))\b/g, ' hello '],
  [/\bthank (you|u)\b/g, ' thanks '],
  [/\b(got it|sounds good|all good|makes sense|no worries|much appreciated|(that |this )?did (it|the trick))\b/g, ' ok '],
];
const GREETING = new Set(['hi', 'hello', 'hey', 'hiya', 'howdy', 'yo']);
const GOODBYE = new Set(['bye', 'goodbye', 'cya']);
/** Saying thanks, in so many words. */
const THANKING = new Set(['thanks', 'thank', 'thankyou', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate', 'kudos']);
/** Acknowledging, alone ("ok", "great") or with thanks. */
const ACKNOWLEDGING = new Set([
  'ok', 'okay', 'k', 'kk', 'great', 'cool', 'perfect', 'awesome', 'brilliant', 'excellent', 'nice', 'lovely', 'wonderful', 'amazing',
  'fantastic', 'super', 'lifesaver', 'legend', 'star', 'lol', 'haha', 'alright', 'gotcha', 'understood',
]);
/** Words that go with any pleasantry ("you guys are awesome", "that's perfect") and say nothing else. */
const FILLER = new Set(['a', 'an', 'the', 'that', 'thats', 'it', 'its', 'this', 'you', 'youre', 'guys', 'folks', 'mate', 'team', 'everyone', 'all', 'there', 'oh', 'ah', 'are', 'is', 'for', 'your', 'really']);
/** Words that go only with thanks said in so many words: "yes thanks" and "thanks so much" are pleasantries, "ok so" leads somewhere. */
const WITH_THANKS = new Set(['so', 'very', 'much', 'lot', 'many', 'tons', 'again', 'help', 'helped', 'helpful', 'worked', 'works', 'working', 'fixed', 'solved', 'sorted', 'now', 'i', 'we', 'me', 'us', 'yes', 'yeah', 'yep', 'was']);
/** News of success, also after a plain acknowledgement ("great, that worked"); alone, "it worked this morning" reports a problem. */
const WITH_ACKNOWLEDGING = new Set(['worked', 'works', 'working', 'fixed', 'solved', 'sorted', 'now', 'helped', 'helpful', 'was']);
/** A clause whose first word (past greetings, thanks and forms of address) is one of these asks something: "thanks, is it fixed now". */
const ASKS = new Set(['is', 'are', 'was', 'were', 'have', 'has', 'had', 'did', 'does', 'do', 'can', 'could', 'will', 'would', 'should', 'shall', 'may', 'might', 'what', 'why', 'how', 'when', 'where', 'who', 'which', 'whats', 'hows', 'any', 'still', 'not', 'no', 'but']);
const PASSED_OVER = new Set([...GREETING, ...ACKNOWLEDGING, ...THANKING, 'so', 'well', 'oh', 'ah', 'there', 'guys', 'folks', 'team', 'all', 'everyone', 'mate', 'yes', 'yeah', 'yep']);
/** Emoji a pleasantry may carry; any other ("thanks 🙄", "great 💀") may be sarcasm or trouble. */
const POSITIVE_EMOJI = /[👍🙏😊🙂😀😃😄😁❤♥💙💚🎉✅👌🙌💯🥳😍🤩🐍✨⭐🌟☺😎💪]/u;

/**
 * The pleasantry a message is ("hi!", "thanks, that worked!", "yes thanks", "ok great, thank you so much", "bye",
 * "thanks Helper" with the agent's name in `names`), or null when it may ask or tell anything: a question mark in
 * any script, a sad emoticon or an emoji not on the positive list, more than 10 words, a clause opening with a
 * question's word ("thanks, is it fixed now"), or any word that is not a pleasantry's.
 */
export function pleasantry(message: string, names: readonly string[] = []): Pleasantry | null {
  if (/[?？؟¿❓❔⁇⁈⁉‽]/u.test(message)) return null;
  if (/[:;=]-?[(/\\|[]|>:|\bD:/.test(message)) return null;
  const pictographs = message.replace(/[\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]/gu, '').match(/\p{Extended_Pictographic}/gu) ?? [];
  if (pictographs.some((p) => !POSITIVE_EMOJI.test(p))) return null;
  let text = normalize(message).replace(/['’`]/g, '');
  for (const [pattern, word] of PHRASES) text = text.replace(pattern, word);
  const named = new Set(names.flatMap((n) => words(n)).filter((w) => !ASKS.has(w)));
  for (const clause of text.split(/[.,;:!\n—–-]+/)) {
    const opener = words(clause).find((w) => !PASSED_OVER.has(w) && !named.has(w));
    if (opener && ASKS.has(opener)) return null;
  }
  const ws = words(text);
  if (!ws.length || ws.length > 10) return null;
  const thanked = ws.some((w) => THANKING.has(w));
  const acknowledged = ws.some((w) => ACKNOWLEDGING.has(w));
  const belongs = (w: string) =>
    GREETING.has(w) || GOODBYE.has(w) || THANKING.has(w) || ACKNOWLEDGING.has(w) || FILLER.has(w) || named.has(w) || (thanked && WITH_THANKS.has(w)) || (acknowledged && WITH_ACKNOWLEDGING.has(w));
  if (!ws.every(belongs)) return null;
  if (ws.some((w) => GOODBYE.has(w))) return 'goodbye';
  if (thanked || acknowledged) return 'thanks';
  return ws.some((w) => GREETING.has(w)) ? 'greeting' : null;
}
