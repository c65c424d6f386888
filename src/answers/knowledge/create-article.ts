import { publicId } from '../../accounts/credentials/tokens.js';
import type { PrismaClient } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';
import { checkArticleSizes, checkWorkspaceSize, DEFAULT_KNOWLEDGE_LIMITS, type KnowledgeLimits } from './knowledge-limits.js';
import { type ArticleInput, markKnowledgeChanged } from './upsert-article.js';

/**
 * Creates a new article (never replaces one). Without an externalId it gets a generated one
 * (`art_…`), so a person writing an article by hand need not invent one; a given externalId that
 * the workspace already has is 409, since replacing is what PUT is for. Past the knowledge limits: 413.
 */
export async function createArticle({
  db,
  workspaceId,
  article,
  limits = DEFAULT_KNOWLEDGE_LIMITS,
}: {
  db: PrismaClient;
  workspaceId: number;
  article: Omit<ArticleInput, 'externalId'> & { externalId?: string | undefined };
  limits?: KnowledgeLimits;
}) {
  const externalId = article.externalId ?? publicId('art_', 16);
  checkArticleSizes([article], limits);
  return db.$transaction(async (tx) => {
    await checkWorkspaceSize({ tx, workspaceId, articles: [{ ...article, externalId }], limits });
    const existing = await tx.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId } }, select: { id: true } });
    if (existing) throw conflict(`externalId: the workspace already has an article "${externalId}" (PUT replaces it)`);
    const created = await tx.article.create({ data: { workspaceId, externalId, title: article.title, body: article.body, url: article.url ?? null } });
    await markKnowledgeChanged(tx, workspaceId);
    return created;
  });
}
