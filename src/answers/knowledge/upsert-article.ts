import type { DbClient, PrismaClient } from '../../platform/db.js';
import { checkArticleSizes, checkWorkspaceSize, DEFAULT_KNOWLEDGE_LIMITS, type KnowledgeLimits } from './knowledge-limits.js';

export interface ArticleInput {
  externalId: string;
  title: string;
  body: string;
  url?: string | null | undefined;
}

/** Writes one article in a transaction that also marks the workspace's knowledge as changed. */
async function write(tx: DbClient, workspaceId: number, a: ArticleInput) {
  const existing = await tx.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId: a.externalId } }, select: { id: true } });
  const article = await tx.article.upsert({
    where: { workspaceId_externalId: { workspaceId, externalId: a.externalId } },
    create: { workspaceId, externalId: a.externalId, title: a.title, body: a.body, url: a.url ?? null },
    update: { title: a.title, body: a.body, url: a.url ?? null },
  });
  return { article, created: !existing };
}

/** Bumped with every knowledge change: processes holding an older index rebuild it before the next answer. */
export async function markKnowledgeChanged(tx: DbClient, workspaceId: number) {
  await tx.workspace.update({ where: { id: workspaceId }, data: { knowledgeVersion: { increment: 1 } } });
}

/** Creates or replaces the article with this externalId; the next answer uses it. Past the knowledge limits: 413. */
export async function upsertArticle({ db, workspaceId, article, limits = DEFAULT_KNOWLEDGE_LIMITS }: { db: PrismaClient; workspaceId: number; article: ArticleInput; limits?: KnowledgeLimits }) {
  checkArticleSizes([article], limits);
  return db.$transaction(async (tx) => {
    await checkWorkspaceSize({ tx, workspaceId, articles: [article], limits });
    const result = await write(tx, workspaceId, article);
    await markKnowledgeChanged(tx, workspaceId);
    return result;
  });
}

/** Upserts many articles in one transaction: all of them or none (413 past the knowledge limits, and nothing written). */
export async function importArticles({ db, workspaceId, articles, limits = DEFAULT_KNOWLEDGE_LIMITS }: { db: PrismaClient; workspaceId: number; articles: ArticleInput[]; limits?: KnowledgeLimits }) {
  checkArticleSizes(articles, limits);
  return db.$transaction(
    async (tx) => {
      await checkWorkspaceSize({ tx, workspaceId, articles, limits });
      let created = 0;
      for (const article of articles) if ((await write(tx, workspaceId, article)).created) created++;
      await markKnowledgeChanged(tx, workspaceId);
      return { imported: articles.length, created, updated: articles.length - created };
    },
    { timeout: 120_000 },
  );
}
