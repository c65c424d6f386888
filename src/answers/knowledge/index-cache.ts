import { createHash } from 'node:crypto';
import type { DbClient } from '../../platform/db.js';
import { KnowledgeIndex, type PreparedArticle, prepareArticle } from '../retrieval/knowledge-index.js';

interface WorkspaceIndex {
  version: number;
  index: Promise<KnowledgeIndex>;
  /** Articles already tokenised, by id, with the updatedAt and staff-confirmed phrasings they were tokenised with. */
  prepared: Map<number, { updatedAt: number; phrasings: string; article: PreparedArticle }>;
}

/** Indexes kept per process; beyond this many workspaces the least recently used is dropped. */
const MAX_WORKSPACES = 200;
const caches = new WeakMap<object, Map<number, WorkspaceIndex>>();

/**
 * The workspace's knowledge index as of `version` (Workspace.knowledgeVersion, read by the caller
 * with the agent). Built on first use and whenever the version moved; a rebuild tokenises only
 * the articles that changed, so one edit among 1,000 articles costs a query and some maps.
 */
export async function knowledgeIndex({ db, workspaceId, version }: { db: DbClient; workspaceId: number; version: number }) {
  let perDb = caches.get(db);
  if (!perDb) caches.set(db, (perDb = new Map()));
  const cached = perDb.get(workspaceId);
  if (cached) {
    perDb.delete(workspaceId);
    perDb.set(workspaceId, cached);
    if (cached.version === version) return cached.index;
  }
  const prepared = cached?.prepared ?? new Map();
  const entry: WorkspaceIndex = { version, prepared, index: build(db, workspaceId, prepared) };
  perDb.set(workspaceId, entry);
  if (perDb.size > MAX_WORKSPACES) perDb.delete(perDb.keys().next().value!);
  entry.index.catch(() => {
    // A failed build (database gone) is not kept: the next call tries again.
    if (perDb.get(workspaceId) === entry) perDb.delete(workspaceId);
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
  for (let i = 0; i < stale.length; i += 500) {
    const rows = await db.article.findMany({ where: { id: { in: stale.slice(i, i + 500) } } });
    for (const row of rows) {
      prepared.set(row.id, {
        updatedAt: row.updatedAt.getTime(),
        phrasings: signature(row.id),
        article: prepareArticle({ id: row.id, externalId: row.externalId, title: row.title, body: row.body, url: row.url }, phrasings.get(row.id)),
      });
    }
  }
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
