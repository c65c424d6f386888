import { normalize, stemWord } from './text.js';

/**
 * Words customers use for the same thing, one group per line: general English and general support
 * vocabulary, true of any help centre (a desktop's, a programming language's, a product's). A query
 * word also looks for the others of its group, at a lower weight. Groups that hold only for one
 * product ("plan"/"tier", "timer"/"timesheet", "seat"/"licence") are left out: they would rewrite
 * another knowledge base's questions into its own words; per-agent synonyms would be the place for them.
 */
const GROUPS = `
cancel terminate unsubscribe
refund reimburse reimbursement
invoice bill receipt
price pricing cost costs fee fees
pay payment
delete remove erase
email mail
phone mobile smartphone cellphone
app application
error problem issue bug glitch
crash crashes crashed freeze freezes frozen
slow slowness lag laggy sluggish
export download
import upload
permission permissions privilege privileges rights
notification notifications alert alerts
calendar schedule agenda
login signin logon
logout signout
password passcode passphrase
2fa mfa twofactor
sync synchronize synchronise synchronization syncing
internet online connectivity
wifi wireless wlan
surname lastname
restore recover undelete
language locale
stats statistics
`;

/** Multi-word phrases folded into one word before tokenising, so "log in" meets "login". */
const PHRASES: [RegExp, string][] = [
  // Before "sign on" becomes "login".
  [/\bsingle sign[- ]?on\b/g, 'sso'],
  [/\b(?:log(?:ged|ging)?|sign(?:ed|ing|s)?)[- ]?(?:in|on)(?:to)?\b/g, 'login'],
  [/\b(?:log(?:ged|ging|s)?|sign(?:ed|ing|s)?)[- ]?out\b/g, 'logout'],
  [/\btwo[- ]?(factor|step)\b/g, 'twofactor'],
  [/\be-mails?\b/g, 'email'],
  [/\bto[- ]do\b/g, 'todo'],
  [/\bset[- ]?up\b/g, 'setup'],
  [/\bmoney back\b/g, 'refund'],
  // "doesn't work" says that something fails, not what: the message's other words say what.
  [/\b(?:(?:does|do|did|is|was|are|were|wo|ca|could|has|have)n['’]?t|dos(?:e)?n['’]?t|not|never|no longer|stopped)\s+(?:work(?:s|ed|ing)?|function(?:s|ed|ing)?)\b/g, 'not'],
];

export function foldPhrases(text: string): string {
  let out = normalize(text);
  for (const [pattern, replacement] of PHRASES) out = out.replace(pattern, replacement);
  return out;
}

const bySTEM = new Map<string, string[]>();
for (const line of GROUPS.trim().split('\n')) {
  const stems = [...new Set(line.trim().split(/\s+/).map((w) => stemWord(w)))];
  for (const s of stems) {
    const others = stems.filter((o) => o !== s);
    bySTEM.set(s, [...new Set([...(bySTEM.get(s) ?? []), ...others])]);
  }
}

/** The other stems of a stem's synonym groups. */
export type Synonyms = (stem: string) => string[];

/** The other stems of the stem's general synonym groups. */
export const synonymsOf: Synonyms = (stem) => bySTEM.get(stem) ?? [];

/**
 * The general groups and an agent's own (single words, a group per entry: "seat", "licence", "slot"),
 * which hold only for its product and so are not general ones.
 */
export function synonymLookup(groups: readonly (readonly string[])[]): Synonyms {
  if (!groups.length) return synonymsOf;
  const own = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = [...new Set(group.map((w) => stemWord(normalize(w).trim())).filter(Boolean))];
    for (const s of stems) {
      const set = own.get(s) ?? new Set(synonymsOf(s));
      for (const o of stems) if (o !== s) set.add(o);
      own.set(s, set);
    }
  }
  const lists = new Map([...own].map(([s, set]) => [s, [...set]]));
  return (stem) => lists.get(stem) ?? synonymsOf(stem);
}
