import { foldPhrases } from './synonyms.js';
import { boundedDamerau, contentWords, frequencies, stemWord, terms } from './text.js';

/** An article as the index needs it. */
export interface ArticleDoc {
  id: number;
  externalId: string;
  title: string;
  body: string;
  url: string | null;
}

/** A run of the article's body, the unit a reply quotes. */
export interface Passage {
  text: string;
  terms: Set<string>;
}

/** An article tokenised once; kept across index rebuilds while the article is unchanged. */
export interface PreparedArticle {
  doc: ArticleDoc;
  titleTf: Map<string, number>;
  titleLen: number;
  bodyTf: Map<string, number>;
  bodyLen: number;
  passages: Passage[];
  /** Surface words → stem, for typo correction. */
  surface: Map<string, string>;
  /** Terms of the messages staff confirmed it answers (each message's distinct terms, at most PHRASING_TERMS). */
  phraseTf: Map<string, number>;
  phraseLen: number;
}

/** A query term with its weight (1 for the message's own words, less for expansions and context). */
export interface QueryTerm {
  term: string;
  weight: number;
}

export interface Hit {
  /** Index into `articles`. */
  index: number;
  /** What ranks it: its text and the phrasings staff confirmed. */
  score: number;
  /** Its text's part alone: what the decision weighs, so a confirmed message never makes the article look surer. */
  textScore: number;
}

export interface SearchResult {
  hits: Hit[];
  /** The score an article matching every query term at saturation would get: the scale of `score`. */
  maxPossible: number;
}

/** BM25F settings: title words weigh more than body words; k1 saturates repeats. */
export interface RankingParams {
  k1: number;
  titleWeight: number;
  bodyWeight: number;
  titleB: number;
  bodyB: number;
}

export const DEFAULT_RANKING: RankingParams = { k1: 1.2, titleWeight: 3, bodyWeight: 1, titleB: 0.4, bodyB: 0.75 };

/** Terms kept of one confirmed message: its own words, not a pasted signature or a stuffed list. */
export const PHRASING_TERMS = 30;

const PASSAGE_WORDS = 90;

/** Paragraphs grouped into passages of about PASSAGE_WORDS words; short heading lines join the next. */
export function splitPassages(body: string): string[] {
  const paragraphs = body
    .split(/\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)|\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const out: string[] = [];
  let current: string[] = [];
  let count = 0;
  for (const paragraph of paragraphs) {
    const n = paragraph.split(/\s+/).length;
    if (count > 0 && count + n > PASSAGE_WORDS && !(current.length === 1 && count < 12)) {
      out.push(current.join('\n'));
      current = [];
      count = 0;
    }
    current.push(paragraph);
    count += n;
  }
  if (current.length) out.push(current.join('\n'));
  return out;
}

/**
 * Tokenises an article: field term frequencies, passages and the surface vocabulary.
 *
 * `phrasings` are customers' messages that staff confirmed this article answers: a field of their own
 * that helps rank the article for messages worded like them, but never quoted (passages come from the
 * article alone), never used to correct typos, never making a word known to the knowledge, and never
 * counted in what the decision weighs (Hit.textScore, coverage): one stuffed message cannot make the
 * article answer everything.
 */
export function prepareArticle(doc: ArticleDoc, phrasings: readonly string[] = []): PreparedArticle {
  // Phrases are folded as in queries, so the article's "sign-in" and "e-mail" meet a message's "login" and "email".
  const title = foldPhrases(doc.title);
  const body = foldPhrases(doc.body);
  const titleTerms = terms(title);
  const bodyTerms = terms(body);
  const phraseTerms = phrasings.flatMap((p) => [...new Set(terms(foldPhrases(p)))].slice(0, PHRASING_TERMS));
  const surface = new Map<string, string>();
  for (const word of [...contentWords(title), ...contentWords(body)]) {
    if (!surface.has(word)) surface.set(word, stemWord(word));
  }
  return {
    doc,
    titleTf: frequencies(titleTerms),
    titleLen: titleTerms.length,
    bodyTf: frequencies(bodyTerms),
    bodyLen: bodyTerms.length,
    passages: splitPassages(doc.body).map((text) => ({ text, terms: new Set(terms(foldPhrases(text))) })),
    surface,
    phraseTf: frequencies(phraseTerms),
    phraseLen: phraseTerms.length,
  };
}

/**
 * An in-memory BM25F index over a workspace's articles. Built from prepared articles (cheap:
 * no tokenising), so a knowledge change costs a rebuild of maps, not of text processing.
 */
export class KnowledgeIndex {
  readonly articles: PreparedArticle[];
  private readonly postings = new Map<string, number[]>();
  private readonly phrasePostings = new Map<string, number[]>();
  /** Body length on average, phrasings included: what ranking normalises by. */
  private readonly avgRanked: number;
  private readonly avgTitle: number;
  private readonly avgBody: number;
  /** Surface word → [stem, document frequency], for typo correction. */
  private readonly vocabulary = new Map<string, [string, number]>();
  private readonly byLength = new Map<number, string[]>();

  constructor(articles: PreparedArticle[], readonly params: RankingParams = DEFAULT_RANKING) {
    this.articles = articles;
    let titles = 0;
    let bodies = 0;
    articles.forEach((a, i) => {
      titles += a.titleLen;
      bodies += a.bodyLen;
      const seen = new Set([...a.titleTf.keys(), ...a.bodyTf.keys()]);
      for (const term of seen) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push(i);
      }
      for (const term of a.phraseTf.keys()) {
        let list = this.phrasePostings.get(term);
        if (!list) this.phrasePostings.set(term, (list = []));
        list.push(i);
      }
      for (const [word, stem] of a.surface) {
        const entry = this.vocabulary.get(word);
        if (entry) entry[1]++;
        else this.vocabulary.set(word, [stem, 1]);
      }
    });
    for (const word of this.vocabulary.keys()) {
      let bucket = this.byLength.get(word.length);
      if (!bucket) this.byLength.set(word.length, (bucket = []));
      bucket.push(word);
    }
    this.avgTitle = articles.length ? titles / articles.length || 1 : 1;
    this.avgBody = articles.length ? bodies / articles.length || 1 : 1;
    this.avgRanked = articles.length ? (bodies + articles.reduce((n, a) => n + a.phraseLen, 0)) / articles.length || 1 : 1;
  }

  get size() {
    return this.articles.length;
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** Inverse document frequency (BM25's, never negative); an unknown term gets the highest. */
  idf(term: string): number {
    const n = this.articles.length;
    const df = this.postings.get(term)?.length ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The corpus word a misspelt one most likely meant: within 1 edit (2 for words of 8+ letters; words under 5 letters are left alone), the most common. */
  correct(word: string): string | null {
    if (word.length < 5 || /\d/.test(word)) return null;
    const maxEdits = word.length >= 8 ? 2 : 1;
    let best: string | null = null;
    let bestDf = 0;
    let bestEdits = Infinity;
    for (let len = word.length - maxEdits; len <= word.length + maxEdits; len++) {
      for (const candidate of this.byLength.get(len) ?? []) {
        if (candidate[0] !== word[0] && maxEdits === 1) continue;
        const edits = boundedDamerau(word, candidate, maxEdits);
        if (edits > maxEdits) continue;
        const df = this.vocabulary.get(candidate)![1];
        if (edits < bestEdits || (edits === bestEdits && df > bestDf)) {
          best = candidate;
          bestDf = df;
          bestEdits = edits;
        }
      }
    }
    return best === null ? null : this.vocabulary.get(best)![0];
  }

  /** BM25F over the weighted query terms; hits best first. */
  search(query: QueryTerm[], limit = 10): SearchResult {
    const { k1, titleWeight, bodyWeight, titleB, bodyB } = this.params;
    const scores = new Map<number, number>();
    const textScores = new Map<number, number>();
    const saturate = (tf: number) => (tf * (k1 + 1)) / (tf + k1);
    const title = (a: PreparedArticle, term: string) => (titleWeight * (a.titleTf.get(term) ?? 0)) / (1 - titleB + (titleB * a.titleLen) / this.avgTitle);
    const body = (tf: number, len: number, avg: number) => (bodyWeight * tf) / (1 - bodyB + (bodyB * len) / avg);
    let maxPossible = 0;
    for (const { term, weight } of query) {
      const idf = this.idf(term);
      maxPossible += weight * idf;
      const text = this.postings.get(term) ?? [];
      const phrased = this.phrasePostings.get(term) ?? [];
      for (const i of phrased.length ? new Set([...text, ...phrased]) : text) {
        const a = this.articles[i]!;
        const tb = a.bodyTf.get(term) ?? 0;
        // Ranked with the confirmed phrasings read as part of the body; weighed by the decision without them.
        if (a.bodyTf.has(term) || a.titleTf.has(term)) textScores.set(i, (textScores.get(i) ?? 0) + weight * idf * saturate(title(a, term) + body(tb, a.bodyLen, this.avgBody)));
        const ranked = title(a, term) + body(tb + (a.phraseTf.get(term) ?? 0), a.bodyLen + a.phraseLen, this.avgRanked);
        scores.set(i, (scores.get(i) ?? 0) + weight * idf * saturate(ranked));
      }
    }
    const hits = [...scores].map(([index, score]) => ({ index, score, textScore: textScores.get(index) ?? 0 }));
    hits.sort((x, y) => y.score - x.score || x.index - y.index);
    return { hits: hits.slice(0, limit), maxPossible: maxPossible * (k1 + 1) };
  }
}
