import stem from 'wink-porter2-stemmer';

/**
 * English stop words: function words that say nothing about what a message is about, plus the
 * filler of support messages ("hi", "please", "thanks").
 */
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are aren as at be because been before being below between
  both but by can cannot could couldn did didn do does doesn doing don down during each few for from further had
  hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself
  just let me more most my myself no nor not now of off on once only or other ought our ours ourselves out over own
  same shan she should shouldn so some such than that the their theirs them themselves then there these they this
  those through to too under until up very was wasn we were weren what when where which while who whom why will
  with won would wouldn you your yours yourself yourselves s t ll re ve d m o y im ive id youre thats whats
  hi hello hey thanks thank please pls plz ok okay hope well also just really actually anyway guys team folks
  get got getting gets go going want wanted need needs wondering wonder know tell help able like way thing things
  one someone something anything everything still even yet anymore maybe since via etc much many
  doesnt dont didnt isnt wasnt arent werent cant couldnt wont wouldnt shouldnt hasnt havent hadnt aint`.split(/\s+/),
);

const cache = new Map<string, string>();
const CACHE_MAX = 50_000;

/** The Porter2 stem of a lower-case word, memoised (the same words recur in every message). */
export function stemWord(word: string): string {
  let s = cache.get(word);
  if (s === undefined) {
    s = /^\d+$/.test(word) ? word : stem(word);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(word, s);
  }
  return s;
}

/** Lower case, accents removed (café → cafe), so "Café" and "cafe" match. */
export function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Marks written as an apostrophe: ASCII, typographic (’ and the ‘ some keyboards give), the modifier letter ʼ, a backtick. */
const APOSTROPHE = "['’‘ʼ`]";

/** Negations whose stem changes in the contraction ("can't", "won't"): the words they stand for. */
const IRREGULAR_NEGATIONS = new RegExp(`\\b(can|won|shan|ain)${APOSTROPHE}t\\b`, 'gu');
const NEGATED: Record<string, string> = { can: 'can not', won: 'will not', shan: 'shall not', ain: 'is not' };

/**
 * English clitics after a word, and the words they stand for: "we'd" is "we would", not the word "wed"; "she'll" is
 * "she will", not "shell". A possessive or "is"/"has" ('s) leaves the word alone ("GNOME's" is "gnome", "it's" is "it").
 */
const CLITICS = new RegExp(`(?<=\\p{L})(n${APOSTROPHE}t|${APOSTROPHE}(?:re|ve|ll|d|m|s))(?![\\p{L}\\p{N}])`, 'gu');
const CLITIC_WORD: Record<string, string> = { nt: ' not', re: ' are', ve: ' have', ll: ' will', d: ' would', m: ' am', s: '' };

/** English contractions written out ("we'd" → "we would", "can’t" → "can not", "GNOME's" → "gnome"); other apostrophes dropped ("O'Brien" → "obrien"). */
export function expandContractions(text: string): string {
  return text
    .replace(IRREGULAR_NEGATIONS, (_, stem: string) => NEGATED[stem.toLowerCase()] ?? stem)
    .replace(CLITICS, (clitic: string) => CLITIC_WORD[clitic.replace(new RegExp(APOSTROPHE, 'gu'), '').toLowerCase()] ?? '')
    .replace(new RegExp(APOSTROPHE, 'gu'), '');
}

/**
 * The words of a text, lower-cased, in order, contractions written out (expandContractions): the one tokeniser of
 * retrieval, of the articles, of the confirmed-answer rule and of the hand-off topics, so a contraction neither
 * becomes another word ("we'd" read as "wed") nor splits into stray letters.
 */
export function words(text: string): string[] {
  return expandContractions(normalize(text)).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Damerau-Levenshtein (optimal string alignment) distance, giving up past `max`. */
export function boundedDamerau(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** Stop words long enough that a customer's misspelling of one is still recognisable ("dosnt", "becuase", "shoud"). */
const LONG_STOP_WORDS = [...STOP_WORDS].filter((w) => w.length >= 4);

/**
 * Whether a word one edit away from a stop word is most likely that stop word misspelt: the caller
 * asks only of words that are neither English nor the knowledge's. Such a word ("dosnt") is not a
 * thing the knowledge lacks; counted as unknown it made a message look off-topic.
 */
export function misspeltStopWord(word: string): boolean {
  return word.length >= 4 && LONG_STOP_WORDS.some((s) => boundedDamerau(word, s, 1) <= 1);
}

/**
 * The plain form of a comparative or superlative ("quickest" → "quick", "easier" → "easy", "biggest" → "big"),
 * its candidates in order; none when the word does not end like one. A customer's "what's the quickest way…"
 * asks about what the knowledge calls quick; the stemmer keeps the degree.
 */
export function plainDegree(word: string): string[] {
  const m = /^(\w{3,}?)(i?)(est|er)$/.exec(word);
  if (!m) return [];
  const [, root, i] = m as unknown as [string, string, string];
  if (i) return [`${root}y`];
  const out = [root, `${root}e`];
  // "biggest" → "big", "hotter" → "hot".
  if (root.length >= 3 && root.at(-1) === root.at(-2)) out.push(root.slice(0, -1));
  return out;
}

/** Words that carry meaning: no stop words, no single letters. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** Stems of the content words, in order (repeats kept: they are term frequencies). */
export function terms(text: string): string[] {
  return contentWords(text).map(stemWord);
}

/** Counts of each item. */
export function frequencies(items: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}
