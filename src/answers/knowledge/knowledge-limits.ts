import { type Config, configFrom } from '../../config.js';
import type { DbClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';

/** How much knowledge one article and one workspace may hold, in characters of title and body. */
export interface KnowledgeLimits {
  maxArticleChars: number;
  maxWorkspaceChars: number;
}

/** The limits set by KNOWLEDGE_MAX_ARTICLE_CHARS and KNOWLEDGE_MAX_WORKSPACE_CHARS. */
export const knowledgeLimits = (config: Pick<Config, 'KNOWLEDGE_MAX_ARTICLE_CHARS' | 'KNOWLEDGE_MAX_WORKSPACE_CHARS'>): KnowledgeLimits => ({
  maxArticleChars: config.KNOWLEDGE_MAX_ARTICLE_CHARS,
  maxWorkspaceChars: config.KNOWLEDGE_MAX_WORKSPACE_CHARS,
});

/** The defaults, for callers without a config (benchmarks, scripts): there is no path without limits. */
export const DEFAULT_KNOWLEDGE_LIMITS = knowledgeLimits(configFrom());

const tooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
const size = (a: { title: string; body: string }) => a.title.length + a.body.length;
const figure = (n: number) => n.toLocaleString('en-US');

/**
 * Refuses (413) articles past the article limit, and a batch that alone is past the workspace's:
 * checked before any database work, so an oversized import costs nothing but its parsing.
 */
export function checkArticleSizes(articles: readonly { externalId?: string | undefined; title: string; body: string }[], limits: KnowledgeLimits) {
  let total = 0;
  articles.forEach((a, i) => {
    const chars = size(a);
    if (chars > limits.maxArticleChars) {
      const which = articles.length > 1 ? `articles.${i} ("${a.externalId}")` : 'the article';
      throw tooLarge(`${which} has ${figure(chars)} characters of title and body; an article may have at most ${figure(limits.maxArticleChars)} (KNOWLEDGE_MAX_ARTICLE_CHARS)`);
    }
    total += chars;
  });
  if (total > limits.maxWorkspaceChars) throw overWorkspace(total, limits);
}

const overWorkspace = (total: number, limits: KnowledgeLimits) =>
  tooLarge(`the workspace's knowledge would have ${figure(total)} characters of titles and bodies; a workspace may have at most ${figure(limits.maxWorkspaceChars)} (KNOWLEDGE_MAX_WORKSPACE_CHARS)`);

/**
 * Inside the writing transaction: refuses (413) when the workspace's articles, with these created or
 * replacing those of the same externalId, would exceed the workspace limit. Locks the workspace row
 * first, so two imports at once are counted one after the other.
 */
export async function checkWorkspaceSize({
  tx,
  workspaceId,
  articles,
  limits,
}: {
  tx: DbClient;
  workspaceId: number;
  articles: readonly { externalId: string; title: string; body: string }[];
  limits: KnowledgeLimits;
}) {
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
  const replaced = articles.map((a) => a.externalId);
  const [row] = await tx.$queryRaw<{ chars: bigint | number | null }[]>`
    SELECT COALESCE(SUM(char_length(title) + char_length(body)), 0)::bigint AS chars
    FROM "Article" WHERE "workspaceId" = ${workspaceId} AND NOT ("externalId" = ANY(${replaced}::text[]))`;
  const total = Number(row?.chars ?? 0) + articles.reduce((n, a) => n + size(a), 0);
  if (total > limits.maxWorkspaceChars) throw overWorkspace(total, limits);
}
