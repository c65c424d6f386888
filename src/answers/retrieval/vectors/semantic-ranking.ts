import type { DbClient } from '../../../platform/db.js';
import type { ArticleVectors, SemanticOptions } from '../semantic.js';
import { articleTexts } from './article-texts.js';
import { articlesWithoutVectors, loadArticleVectors, storeArticleVectors } from './article-vectors.js';
import { type VectorFailureKind, type VectorSource, VectorSourceError } from './vector-source.js';

export interface SemanticRankingOptions {
  source: VectorSource;
  /** How long an answer waits for its message's vector; past it the answer is ranked lexically. */
  queryTimeoutMs: number;
  /** Memory the workspaces' vectors may take in this process; least recently used out first. */
  cacheBytes: number;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

/** Why the workspace's last build in this process stopped before every article had vectors. */
export interface BuildFailure {
  /** When it stopped. */
  at: Date;
  /** What failed; `internal`: not the vectors' source (the database, say). */
  kind: VectorFailureKind | 'internal';
  /** What failed, in words for the person reading the console (no address, no internal detail: those are logged). */
  reason: string;
  /** From when it is tried again: the next answer or status read after this starts a build. */
  retryAt: Date;
}

/** A build under way in this process: when it started, how many articles it has embedded, and when it last stored one. */
export interface BuildProgress {
  since: Date;
  done: number;
  lastAt: Date;
}

interface Entry {
  version: number;
  vectors: ArticleVectors;
  complete: boolean;
  bytes: number;
  loadedAt: number;
  refreshing: Promise<void> | null;
}

/** While some article lacks vectors, a workspace's vectors are read again at most this often (another process may be computing them). */
const RELOAD_INCOMPLETE_MS = 5000;
/** Articles read per round of a build. */
const BUILD_BATCH = 16;
/** A build that failed (the embeddings server down) is not tried again for this long. */
const RETRY_AFTER_MS = 30_000;

/**
 * Semantic ranking for the answer path: each workspace's article vectors, computed in the background
 * (never on the request path: an answer uses the vectors that exist, and an article without any is
 * ranked lexically) and kept in the database, and the message's own vector, waited for at most
 * queryTimeoutMs. One build per workspace at a time in this process; several processes may compute
 * the same article once each (the last write wins; the vectors are the same).
 */
export class SemanticRanking {
  readonly #options: SemanticRankingOptions;
  readonly #entries = new WeakMap<object, Map<number, Entry>>();
  readonly #builds = new Map<string, Promise<void>>();
  /** Builds under way in this process: when each started, how many articles it has embedded since, and when the last. */
  readonly #progress = new Map<string, BuildProgress>();
  /** The last build that failed, per workspace, until a build stores an article or finds none missing. */
  readonly #failures = new Map<string, BuildFailure>();
  #closed = false;
  #idle: Set<Promise<void>> = new Set();

  constructor(options: SemanticRankingOptions) {
    this.#options = options;
  }

  get model() {
    return this.#options.source.id;
  }

  /**
   * composeAnswer's semantic options for the workspace at this knowledge version; undefined while it has
   * no vectors at all. Starts a background build when some article lacks them.
   */
  async forWorkspace({ db, workspaceId, version }: { db: DbClient; workspaceId: number; version: number }): Promise<SemanticOptions | undefined> {
    if (this.#closed) return undefined;
    let perDb = this.#entries.get(db);
    if (!perDb) this.#entries.set(db, (perDb = new Map()));
    let entry = perDb.get(workspaceId);
    if (entry) {
      perDb.delete(workspaceId);
      perDb.set(workspaceId, entry);
    }
    if (!entry || entry.version !== version) {
      // A knowledge change: read again before answering (an edited article's old vectors no longer count).
      entry = await this.#load(db, workspaceId, version);
      perDb.set(workspaceId, entry);
      this.#evict(perDb);
    } else if (!entry.complete && Date.now() - entry.loadedAt > RELOAD_INCOMPLETE_MS && !entry.refreshing) {
      // Vectors arriving: picked up in the background, this answer uses what is here.
      const current = entry;
      current.refreshing = this.#load(db, workspaceId, version)
        .then((fresh) => {
          if (perDb.get(workspaceId) === current) perDb.set(workspaceId, fresh);
        })
        .catch(() => {})
        .finally(() => (current.refreshing = null));
    }
    if (!entry.complete) this.build({ db, workspaceId });
    if (entry.vectors.size === 0) return undefined;
    const vectors = entry.vectors;
    const dimensions = dimensionsOf(vectors);
    return { vectors, embed: (texts) => this.#embedQuery(texts, dimensions, workspaceId) };
  }

  /** Computes the vectors the workspace's articles lack, in the background (one build per workspace at a time). */
  build({ db, workspaceId }: { db: DbClient; workspaceId: number }): Promise<void> {
    const key = `${workspaceId}`;
    const running = this.#builds.get(key);
    if (running) return running;
    if (this.#closed || Date.now() < (this.#failures.get(key)?.retryAt.getTime() ?? 0)) return Promise.resolve();
    const since = new Date();
    this.#progress.set(key, { since, done: 0, lastAt: since });
    const run = this.#build(db, workspaceId)
      .then(() => {
        if (!this.#closed) this.#failures.delete(key);
      })
      .catch((error: Error) => {
        if (this.#closed) return;
        const at = new Date();
        this.#failures.set(key, { at, ...describeFailure(error), retryAt: new Date(at.getTime() + RETRY_AFTER_MS) });
        this.#options.log.warn({ err: { message: error.message }, workspaceId }, 'computing the knowledge vectors failed; answers rank lexically until they exist');
      })
      .finally(() => {
        this.#builds.delete(key);
        this.#progress.delete(key);
        this.#idle.delete(run);
      });
    this.#builds.set(key, run);
    this.#idle.add(run);
    return run;
  }

  async #build(db: DbClient, workspaceId: number) {
    const model = this.#options.source.id;
    let done = 0;
    for (;;) {
      if (this.#closed) return;
      const rows = await articlesWithoutVectors({ db, workspaceId, model, limit: BUILD_BATCH });
      if (!rows.length) break;
      // The size the workspace's stored vectors have: an article's of another size is never stored beside them.
      const stored = dimensionsOf(this.#entries.get(db)?.get(workspaceId)?.vectors);
      for (const row of rows) {
        if (this.#closed) return;
        const texts = articleTexts(row);
        const vectors = await this.#options.source.embed(texts, 'background');
        const wrong = wrongVectors(vectors, texts.length, stored);
        if (wrong) throw new VectorSourceError(`article ${row.id}: ${wrong}; nothing stored`, 'bad_reply');
        await storeArticleVectors({ db, workspaceId, articleId: row.id, model, contentHash: row.contentHash, vectors });
        done++;
        const progress = this.#progress.get(`${workspaceId}`);
        if (progress) Object.assign(progress, { done, lastAt: new Date() });
        // Moving again: an earlier failure no longer describes the build.
        this.#failures.delete(`${workspaceId}`);
      }
      // The next answer ranks with what was stored.
      const perDb = this.#entries.get(db);
      const entry = perDb?.get(workspaceId);
      if (perDb && entry) {
        const fresh = await this.#load(db, workspaceId, entry.version);
        if (perDb.get(workspaceId) === entry) perDb.set(workspaceId, fresh);
      }
    }
    if (done) this.#options.log.info({ workspaceId, articles: done, model }, 'knowledge vectors computed');
  }

  async #load(db: DbClient, workspaceId: number, version: number): Promise<Entry> {
    const loaded = await loadArticleVectors({ db, workspaceId, model: this.#options.source.id });
    return { version, ...loaded, loadedAt: Date.now(), refreshing: null };
  }

  #evict(perDb: Map<number, Entry>) {
    let total = 0;
    for (const e of perDb.values()) total += e.bytes;
    for (const [id, e] of perDb) {
      if (total <= this.#options.cacheBytes || perDb.size <= 1) break;
      perDb.delete(id);
      total -= e.bytes;
    }
  }

  /**
   * The message's vectors, or null for each when the source is slow or down, or its vectors are not
   * one per text of the knowledge's size (that answer is ranked lexically). At the deadline the
   * source's work is stopped too (an embeddings server's reply is not downloaded for nothing).
   */
  async #embedQuery(texts: string[], dimensions: number | undefined, workspaceId: number): Promise<(Float32Array | null)[]> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve(null);
      }, this.#options.queryTimeoutMs);
    });
    try {
      const vectors = await Promise.race([this.#options.source.embed(texts, 'query', abort.signal).catch(() => null), timeout]);
      const wrong = vectors && wrongVectors(vectors, texts.length, dimensions);
      if (wrong) this.#options.log.warn({ workspaceId, model: this.model }, `the message's vectors were refused: ${wrong}; this answer is ranked by its words`);
      return vectors && !wrong ? vectors : texts.map(() => null);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The workspace's build under way in this process, if any: when it started, how many articles it has embedded, and when the last. */
  buildProgress(workspaceId: number): BuildProgress | null {
    const progress = this.#progress.get(`${workspaceId}`);
    return progress ? { ...progress } : null;
  }

  /** Why the workspace's last build in this process failed, while no build since has stored an article; else null. */
  buildFailure(workspaceId: number): BuildFailure | null {
    const failure = this.#failures.get(`${workspaceId}`);
    return failure ? { ...failure } : null;
  }

  /** Waits for the builds under way (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.#idle.size) await Promise.all([...this.#idle]);
  }

  async close() {
    this.#closed = true;
    // Closing the source fails what a build waits for, so the builds end at once.
    await this.#options.source.close();
    await Promise.allSettled([...this.#idle]);
  }
}

/** A build's error as a kind and a sentence a support person reads (the error's own message, which may name the endpoint, is logged). */
function describeFailure(error: Error): Pick<BuildFailure, 'kind' | 'reason'> {
  if (!(error instanceof VectorSourceError)) return { kind: 'internal', reason: 'Storing the vectors failed on this server.' };
  const reasons: Record<VectorFailureKind, string> = {
    unreachable: 'The embeddings server could not be reached.',
    timeout: 'The embeddings server did not answer in time.',
    http_error: `The embeddings server refused the request (HTTP ${error.httpStatus ?? 'error'}).`,
    bad_reply: 'The embeddings server answered with vectors that cannot be used.',
    encoder: 'The built-in sentence encoder stopped.',
  };
  return { kind: error.kind, reason: reasons[error.kind] };
}

/** The size of the first vector kept (a workspace's are all one size); undefined when none is. */
function dimensionsOf(vectors: ArticleVectors | undefined): number | undefined {
  for (const list of vectors?.values() ?? []) if (list[0]) return list[0].length;
  return undefined;
}

/** Why a source's answer is not used: not one vector per text, or not the size the others have. */
function wrongVectors(vectors: Float32Array[], count: number, dimensions: number | undefined): string | null {
  if (vectors.length !== count) return `${vectors.length} vectors for ${count} texts`;
  const odd = vectors.find((v) => v.length === 0 || (dimensions !== undefined && v.length !== dimensions));
  if (odd) return `a vector of ${odd.length} dimensions, where the knowledge's have ${dimensions ?? 'more'}`;
  return null;
}
