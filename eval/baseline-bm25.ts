/**
 * The baseline the evaluation compares against: plain Okapi BM25 (k1 = 1.2, b = 0.75) over each
 * article's title and body as one text, lower-cased words, no stemming, no stop words, no
 * typo correction, no synonyms, no thread context; a human is needed when the top score over the
 * best possible score is below a threshold tuned on the same half.
 */
interface Doc {
  externalId: string;
  tf: Map<string, number>;
  len: number;
}

const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class Bm25 {
  private readonly docs: Doc[];
  private readonly df = new Map<string, number>();
  private readonly avg: number;

  constructor(articles: { externalId: string; title: string; body: string }[], private readonly k1 = 1.2, private readonly b = 0.75) {
    this.docs = articles.map((a) => {
      const words = tokens(`${a.title} ${a.body}`);
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return { externalId: a.externalId, tf, len: words.length };
    });
    this.avg = this.docs.reduce((n, d) => n + d.len, 0) / this.docs.length;
  }

  private idf(term: string) {
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }

  /** Ranked externalIds and the top score over the best possible score for the query. */
  search(query: string): { ranking: string[]; top: number } {
    const terms = [...new Set(tokens(query))];
    const max = terms.reduce((n, t) => n + this.idf(t) * (this.k1 + 1), 0);
    const scored = this.docs.map((d) => {
      let s = 0;
      for (const t of terms) {
        const tf = d.tf.get(t);
        if (tf) s += (this.idf(t) * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * d.len) / this.avg));
      }
      return { id: d.externalId, s };
    });
    const ranked = scored.filter((x) => x.s > 0).sort((x, y) => y.s - x.s);
    return { ranking: ranked.map((x) => x.id), top: ranked.length && max > 0 ? ranked[0]!.s / max : 0 };
  }
}
