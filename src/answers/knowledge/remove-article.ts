import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { markKnowledgeChanged } from './upsert-article.js';

/** Deletes the article with this externalId; 404 when the workspace has none. */
export async function removeArticle({ db, workspaceId, externalId }: { db: PrismaClient; workspaceId: number; externalId: string }) {
  return db.$transaction(async (tx) => {
    const { count } = await tx.article.deleteMany({ where: { workspaceId, externalId } });
    if (count === 0) throw notFound(`externalId: no article "${externalId}" in this workspace`);
    await markKnowledgeChanged(tx, workspaceId);
  });
}
