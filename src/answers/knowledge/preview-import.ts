import type { DbClient } from '../../platform/db.js';
import { checkArticleSizes, checkWorkspaceSize, DEFAULT_KNOWLEDGE_LIMITS, type KnowledgeLimits } from './knowledge-limits.js';

/**
 * What an import would do: how many articles it would create, and which it would replace; 413 when
 * it would pass the knowledge limits, as the import itself would.
 */
export async function previewImport({ db, workspaceId, articles, limits = DEFAULT_KNOWLEDGE_LIMITS }: { db: DbClient; workspaceId: number; articles: { externalId: string; title: string; body: string }[]; limits?: KnowledgeLimits }) {
  checkArticleSizes(articles, limits);
  await checkWorkspaceSize({ tx: db, workspaceId, articles, limits });
  const externalIds = articles.map((a) => a.externalId);
  const existing = await db.article.findMany({ where: { workspaceId, externalId: { in: externalIds } }, select: { externalId: true }, orderBy: { externalId: 'asc' } });
  return { imported: externalIds.length, created: externalIds.length - existing.length, updated: existing.length, updatedIds: existing.map((a) => a.externalId) };
}
