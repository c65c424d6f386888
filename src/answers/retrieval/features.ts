import type { KnowledgeIndex, PreparedArticle, QueryTerm } from './knowledge-index.js';
import type { Synonyms } from './synonyms.js';

/** What the decision looks at; each in a comparable range whatever the knowledge's size. */
export interface Features {
  /** Top score over the best possible score for this query (0-1). */
  top: number;
  /** Share of the message's own term weight (by idf) found in the top article, itself or a synonym (0-1). */
  coverage: number;
  /** Share of it found in the top article's title (0-1). */
  titleCoverage: number;
  /** Share of the weight of the message's two rarest terms found in the top article (0-1): its key words. */
  keyCoverage: number;
  /** (first - second) / first (0-1). */
  margin: number;
  /** Share of the message's own words the knowledge has never seen, even allowing a typo or a synonym. */
  unknownShare: number;
  /**
   * The part of `unknownShare` made of words that are nouns in general English (WordNet's most
   * frequent part of speech). A noun the knowledge never uses names a thing it does not talk about
   * ("gym", "laptop", "banana"); an unknown verb, adjective or adverb usually tells the customer's
   * story around a question it does cover ("finished", "married", "forever").
   */
  unknownNouns: number;
  /**
   * Share of the message's own term weight, by idf, that the knowledge never uses (even as a synonym).
   * Weighing by idf makes it a share of what the message is about, whatever the knowledge's size and
   * vocabulary: an unknown word counts as much as the knowledge's rarest.
   */
  unknownMass: number;
  /** ln(1 + number of the message's own terms). */
  length: number;
  /**
   * When the message asks whether the product has or does something ("is there…", "do you offer…"),
   * the share of its key words the top article lacks (0-1), else 0. A help centre documents what a
   * product does, so a feature whose words it never mentions is most likely one it does not have.
   */
  capabilityGap: number;
  /** The best article's cosine to the message (semantic.ts; its lexical share when no vectors are at hand). */
  cosine: number;
  /** That cosine less the second article's. */
  cosineMargin: number;
  /** The best article's blended score (0-1): what ranked it first. */
  blended: number;
  /** (first − second) / first of the blended scores (0-1). */
  blendedMargin: number;
}

export interface Scored {
  article: PreparedArticle;
  /** What ranked it (semantic.ts: the blend). */
  score: number;
  /** Its best cosine to the message (its lexical share without vectors). */
  cosine: number;
  /** The article's text's part of the score, without confirmed phrasings: what the decision weighs. */
  textScore: number;
}

/** "Is there…", "do you have…", "does it support…", "can I use X to…": asking whether something exists. */
const CAPABILITY =
  /\b(is there|are there|do (you|they|we) (have|offer|support|provide|sell)|does (it|\w+) (have|offer|support|provide|come with)|can (i|we|you) use \w+ (to|for|as)|is it possible to|any way to|do you do)\b/;

/** How many of the message's rarest terms are its key words. */
const KEY_TERMS = 2;

const inArticle = (article: PreparedArticle, term: string) => article.titleTf.has(term) || article.bodyTf.has(term);

/** Measures how well the best candidate covers the message (its own terms, not the thread's or the expansions). */
export function measure(options: {
  index: KnowledgeIndex;
  /** The other stems of a stem's synonym groups: a word found as its synonym counts as found. */
  synonyms: Synonyms;
  /** The message's own terms, after typo correction. */
  own: QueryTerm[];
  /** Share of the message's words unknown even allowing a typo or a synonym (see buildQuery). */
  unknownShare: number;
  /** The part of it made of nouns (see buildQuery). */
  unknownNounShare: number;
  candidates: Scored[];
  maxPossible: number;
  /** The message, normalised (lower case). */
  text: string;
}): Features {
  const { index, own, candidates } = options;
  const found = (has: (term: string) => boolean, term: string) => has(term) || options.synonyms(term).some(has);
  const first = candidates[0];
  const second = candidates[1];
  const masses = own.map(({ term, weight }) => ({ term, mass: weight * index.idf(term) }));
  const total = masses.reduce((n, m) => n + m.mass, 0);
  let covered = 0;
  let inTitle = 0;
  for (const { term, mass } of masses) {
    if (first && found((t) => inArticle(first.article, t), term)) covered += mass;
    if (first && found((t) => first.article.titleTf.has(t), term)) inTitle += mass;
  }
  const key = [...masses].sort((a, b) => b.mass - a.mass).slice(0, KEY_TERMS);
  const keyMass = key.reduce((n, m) => n + m.mass, 0);
  const keyCovered = first ? key.filter((m) => found((t) => inArticle(first.article, t), m.term)).reduce((n, m) => n + m.mass, 0) : 0;
  const keyCoverage = keyMass > 0 ? keyCovered / keyMass : 0;
  return {
    top: first && options.maxPossible > 0 ? first.textScore / options.maxPossible : 0,
    coverage: total > 0 ? covered / total : 0,
    titleCoverage: total > 0 ? inTitle / total : 0,
    keyCoverage,
    margin: first && first.textScore > 0 ? Math.max(0, first.textScore - (second?.textScore ?? 0)) / first.textScore : 0,
    unknownShare: options.unknownShare,
    unknownNouns: options.unknownNounShare,
    unknownMass: total > 0 ? masses.filter((m) => !found((t) => index.has(t), m.term)).reduce((n, m) => n + m.mass, 0) / total : 0,
    length: Math.log1p(own.length),
    capabilityGap: CAPABILITY.test(options.text) ? 1 - keyCoverage : 0,
    cosine: first?.cosine ?? 0,
    cosineMargin: first ? first.cosine - (second?.cosine ?? 0) : 0,
    blended: first?.score ?? 0,
    blendedMargin: first && first.score > 0 ? Math.max(0, first.score - (second?.score ?? 0)) / first.score : 0,
  };
}
