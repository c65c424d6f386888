import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/** The workspace's article with this externalId, else 404. */
export async function getArticle({ db, workspaceId, externalId }: { db: DbClient; workspaceId: number; externalId: string }) {
  const article = await db.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId } } });
  if (!article) throw notFound(`externalId: no article "${externalId}" in this workspace`);
  return article;
}
