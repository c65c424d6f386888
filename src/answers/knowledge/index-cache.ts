import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DbClient } from '../../platform/db.js';
import { KnowledgeIndex, type PreparedArticle, prepareArticle } from '../retrieval/knowledge-index.js';

interface WorkspaceIndex {
  version: number;
  index: Promise<KnowledgeIndex>;
  /** Articles already tokenised, by id, with the updatedAt and staff-confirmed phrasings they were tokenised with. */
  prepared: Map<number, { updatedAt: number; phrasings: string; article: PreparedArticle; bytes: number }>;
  /** The estimated memory of `prepared` (and so of the index built from it), once built. */
  bytes: number;
}

interface Cache {
  /** Least recently used first. */
  entries: Map<number, WorkspaceIndex>;
  maxBytes: number;
}

/**
 * Memory an index holds per character tokenised: term-frequency maps, passages, the surface
 * vocabulary and postings, measured at 6-9 bytes a character of English-like text (plus the text
 * itself, kept in the passages).
 */
export const INDEX_BYTES_PER_CHAR = 8;
const INDEX_BYTES_PER_ARTICLE = 2_000;
/** Work done between two yields to the event loop while building an index. */
const SLICE_MS = 8;
/** Articles fetched at a time: about 1 MB of text at the largest allowed article. */
const FETCH_BATCH = 10;
const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

const caches = new WeakMap<object, Cache>();

function cacheOf(db: DbClient) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: new Map(), maxBytes: DEFAULT_MAX_BYTES }));
  return cache;
}

/** Sets the memory the indexes of this database's workspaces may take in this process (KNOWLEDGE_INDEX_CACHE_MB). */
export function configureIndexCache({ db, maxBytes }: { db: DbClient; maxBytes: number }) {
  cacheOf(db).maxBytes = maxBytes;
  evict(cacheOf(db));
}

/** What the cache holds, for tests and metrics: workspaces, least recently used first, and their estimated bytes. */
export function indexCacheUsage(db: DbClient) {
  const cache = cacheOf(db);
  const workspaces = [...cache.entries].map(([workspaceId, e]) => ({ workspaceId, bytes: e.bytes }));
  return { workspaces, bytes: workspaces.reduce((n, w) => n + w.bytes, 0), maxBytes: cache.maxBytes };
}

/** Drops the least recently used indexes until the estimate fits; the most recent one stays even if it alone does not. */
function evict(cache: Cache) {
  let total = 0;
  for (const e of cache.entries.values()) total += e.bytes;
  for (const [workspaceId, e] of cache.entries) {
    if (total <= cache.maxBytes || cache.entries.size <= 1) break;
    cache.entries.delete(workspaceId);
    total -= e.bytes;
  }
}

/**
 * The workspace's knowledge index as of `version` (Workspace.knowledgeVersion, read by the caller
 * with the agent). Built on first use and whenever the version moved; a rebuild tokenises only
 * the articles that changed, so one edit among 1,000 articles costs a query and some maps. The
 * build runs in slices of a few milliseconds that yield to the event loop, so other requests are
 * answered while a large knowledge base is tokenised; indexes are kept within a memory budget.
 */
export async function knowledgeIndex({ db, workspaceId, version }: { db: DbClient; workspaceId: number; version: number }) {
  const cache = cacheOf(db);
  const cached = cache.entries.get(workspaceId);
  if (cached) {
    cache.entries.delete(workspaceId);
    cache.entries.set(workspaceId, cached);
    if (cached.version === version) return cached.index;
  }
  // A copy: a build still running for an older version (it yields) must not interleave its writes with this one's.
  const prepared: WorkspaceIndex['prepared'] = new Map(cached?.prepared);
  const index = build(db, workspaceId, prepared).then((built) => {
    entry.bytes = 0;
    for (const p of prepared.values()) entry.bytes += p.bytes;
    if (cache.entries.get(workspaceId) === entry) evict(cache);
    return built;
  });
  const entry: WorkspaceIndex = { version, prepared, bytes: cached?.bytes ?? 0, index };
  cache.entries.set(workspaceId, entry);
  evict(cache);
  entry.index.catch(() => {
    // A failed build (database gone) is not kept: the next call tries again.
    if (cache.entries.get(workspaceId) === entry) cache.entries.delete(workspaceId);
  });
  return entry.index;
}

/** Phrasings kept per article (the latest), and characters kept of each: a long message's tail adds noise, not meaning. */
const MAX_PHRASINGS = 50;
const MAX_PHRASING_CHARS = 1000;

async function build(db: DbClient, workspaceId: number, prepared: WorkspaceIndex['prepared']) {
  const current = await db.article.findMany({ where: { workspaceId }, select: { id: true, updatedAt: true }, orderBy: { id: 'asc' } });
  const phrasings = await phrasingsOf(db, workspaceId);
  // A digest, not the text: up to 50 messages an article, for up to 200 workspaces, stay out of memory.
  const signature = (id: number) => {
    const list = phrasings.get(id);
    return list ? createHash('sha256').update(list.join('\u0000')).digest('base64') : '';
  };
  const stale = current
    .filter((a) => {
      const kept = prepared.get(a.id);
      return kept?.updatedAt !== a.updatedAt.getTime() || kept.phrasings !== signature(a.id);
    })
    .map((a) => a.id);
  const live = new Set(current.map((a) => a.id));
  for (const id of prepared.keys()) if (!live.has(id)) prepared.delete(id);
  let slice = performance.now();
  for (let i = 0; i < stale.length; i += FETCH_BATCH) {
    const rows = await db.article.findMany({ where: { id: { in: stale.slice(i, i + FETCH_BATCH) } } });
    slice = performance.now();
    for (const row of rows) {
      const own = phrasings.get(row.id);
      const chars = row.title.length + row.body.length + (own ?? []).reduce((n, p) => n + p.length, 0);
      prepared.set(row.id, {
        updatedAt: row.updatedAt.getTime(),
        phrasings: signature(row.id),
        article: prepareArticle({ id: row.id, externalId: row.externalId, title: row.title, body: row.body, url: row.url }, own),
        bytes: INDEX_BYTES_PER_ARTICLE + INDEX_BYTES_PER_CHAR * chars,
      });
      // One article is the unit of work: past a slice's worth, let other requests in.
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
    }
  }
  await nextTurn();
  return new KnowledgeIndex(current.flatMap((a) => prepared.get(a.id)?.article ?? []));
}

/** Messages staff confirmed an article answers (turn feedback), by article: the latest MAX_PHRASINGS, oldest first, cut to MAX_PHRASING_CHARS. */
async function phrasingsOf(db: DbClient, workspaceId: number) {
  const rows = await db.$queryRaw<{ articleId: number; question: string }[]>`
    SELECT "articleId", question FROM (
      SELECT f."articleId", left(t.question, ${MAX_PHRASING_CHARS}::int) AS question, f."turnId",
             row_number() OVER (PARTITION BY f."articleId" ORDER BY f."turnId" DESC) AS n
      FROM "TurnFeedback" f JOIN "ConversationTurn" t ON t.id = f."turnId"
      WHERE f."workspaceId" = ${workspaceId} AND f."articleId" IS NOT NULL
    ) latest
    WHERE n <= ${MAX_PHRASINGS}
    ORDER BY "articleId", "turnId"`;
  const out = new Map<number, string[]>();
  for (const { articleId, question } of rows) out.set(articleId, [...(out.get(articleId) ?? []), question]);
  return out;
}
