import { dot } from './vectors/vector-source.js';
import type { KnowledgeIndex, SearchResult } from './knowledge-index.js';

/** Article id → its unit vectors (title, passages): see vectors/article-texts.ts. */
export type ArticleVectors = ReadonlyMap<number, readonly Float32Array[]>;

/** What semantic ranking needs for one reading of a message. */
/** What composeAnswer needs to rank by meaning too (this file). */
export interface SemanticOptions {
  /** The articles' vectors computed so far; an article without any is ranked lexically. */
  vectors: ArticleVectors;
  /** Unit vectors of the texts, in order; null where none could be had in time (that reading is then lexical). */
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
}

export interface SemanticQuery {
  /** The message's unit vector, from the same source as the articles'. */
  vector: Float32Array;
  vectors: ArticleVectors;
}

/** The share of a knowledge's articles with vectors from which `partition` blends a partial build (see blend). */
const PARTITION_FROM = 0.5;

/** Articles taken from the cosine ranking into the pool that is blended, besides the lexical hits. */
const SEMANTIC_POOL = 20;

export interface Blended {
  index: number;
  /** (1 − w) · lexical + w · cosine. */
  score: number;
  /** The lexical score over the query's best possible one (0-1). */
  lexical: number;
  /** The best cosine of the article's vectors to the message; the lexical share when it has none yet. */
  cosine: number;
  /** The article's text's lexical score (see Hit.textScore). */
  textScore: number;
  /** Its cosine is a real one: the article has vectors (else `cosine` is its lexical share). */
  embedded: boolean;
}

/**
 * How a ranking blends while some articles have no current vectors yet (an import or an edit being embedded): never
 * by comparing one article's cosine with another's lexical share, which ranked worse than words alone (eval/RESULTS.md).
 * - `lexical`: meaning is used only once every article ranked has vectors; until then the ranking is lexical.
 * - `partition`: once half the knowledge has vectors, the articles with vectors are blended among themselves and
 *   take, best first, the places the lexical ranking gives them; those without keep their lexical places. Before
 *   that, as `lexical`.
 * - `mixed`: the earlier ranking (an article without vectors ranked on its lexical share as if it were a
 *   cosine), kept for `npm run eval -- --build` to measure against.
 */
export type PartialVectors = 'lexical' | 'partition' | 'mixed';

/**
 * The lexical hits and the articles nearest in meaning, ranked by (1 − w) · (score ÷ the best possible
 * score) + w · (best cosine of the article's title and passages). While some ranked article's vectors are not
 * computed yet, `partial` says how (see PartialVectors), so a fresh import is answered while its vectors are
 * built, and never worse than by its words.
 */
export function blend(index: KnowledgeIndex, lexical: SearchResult, semantic: SemanticQuery | undefined, weight: number, limit: number, partial: PartialVectors = 'partition'): { ranked: Blended[]; compromise: boolean } {
  const max = lexical.maxPossible || 1;
  const pool = new Map<number, Blended>();
  for (const h of lexical.hits) pool.set(h.index, { index: h.index, score: h.score / max, lexical: h.score / max, cosine: h.score / max, textScore: h.textScore, embedded: false });
  const lexicalOnly = () => ({ ranked: [...pool.values()].slice(0, limit), compromise: false });
  if (!semantic || weight <= 0 || semantic.vectors.size === 0) return lexicalOnly();
  const cosines: { index: number; cosine: number }[] = [];
  index.articles.forEach((a, i) => {
    const vs = semantic.vectors.get(a.doc.id);
    if (!vs?.length) return;
    let best = -1;
    for (const v of vs) best = Math.max(best, dot(v, semantic.vector));
    cosines.push({ index: i, cosine: best });
  });
  const byIndex = new Map(cosines.map((c) => [c.index, c.cosine]));
  // The articles the words found are all ranked; the ones the meaning adds have vectors by definition. Before
  // PARTITION_FROM of the knowledge has vectors, `partition` ranks by words too (it fell 1 message in 99 short of
  // words alone on Python at a quarter built).
  const early = partial === 'partition' && semantic.vectors.size < index.size * PARTITION_FROM;
  if ((partial === 'lexical' || early) && [...pool.keys()].some((i) => !byIndex.has(i))) return lexicalOnly();
  cosines.sort((a, b) => b.cosine - a.cosine || a.index - b.index);
  for (const c of cosines.slice(0, SEMANTIC_POOL)) {
    if (!pool.has(c.index)) pool.set(c.index, { index: c.index, score: 0, lexical: 0, cosine: 0, textScore: 0, embedded: false });
  }
  for (const b of pool.values()) {
    const cosine = byIndex.get(b.index);
    b.embedded = cosine !== undefined;
    b.cosine = cosine ?? b.lexical;
    // Without vectors, its lexical share (what `mixed` then compared with others' blends).
    b.score = (1 - weight) * b.lexical + weight * b.cosine;
  }
  const byScore = (x: Blended, y: Blended) => y.score - x.score || x.index - y.index;
  let ranked: Blended[];
  if (partial === 'partition' && [...pool.values()].some((b) => !b.embedded)) {
    // The lexical order's places; those of articles with vectors go to them in their blended order.
    const places = [...pool.values()].sort((x, y) => y.lexical - x.lexical || x.index - y.index);
    const embedded = places.filter((b) => b.embedded).sort(byScore);
    let next = 0;
    ranked = places.map((b) => (b.embedded ? embedded[next++]! : b));
  } else {
    ranked = [...pool.values()].sort(byScore);
  }
  return { ranked: ranked.slice(0, limit), compromise: isCompromise(ranked) };
}

/**
 * Whether the first of a blended ranking is first neither by its lexical share nor by its cosine: the
 * message's words lead to one article, its meaning to another, and the blend put a third ahead.
 * Measured on the evaluation's bases (eval/RESULTS.md, session 19), such a first article is rarely the
 * one that answers: of the answers given from one, none was right. Cosines are compared only among
 * articles that have vectors (one still without, during an import, has only its lexical share), and a
 * first article without vectors is never one: its meaning was not measured.
 */
export function isCompromise(ranked: readonly Blended[]): boolean {
  const first = ranked[0];
  if (!first?.embedded) return false;
  const lexical = Math.max(...ranked.map((b) => b.lexical));
  const cosine = Math.max(...ranked.filter((b) => b.embedded).map((b) => b.cosine));
  return !(lexical > 0 && first.lexical >= lexical) && first.cosine < cosine;
}
