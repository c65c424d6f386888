import type { DbClient } from '../../platform/db.js';

/** A page of the workspace's articles by externalId, optionally those whose title or body contains `q`. */
export async function listArticles({
  db,
  workspaceId,
  q,
  limit,
  after,
}: {
  db: DbClient;
  workspaceId: number;
  q?: string | undefined;
  limit: number;
  /** The last externalId of the previous page. */
  after?: string | undefined;
}) {
  const rows = await db.article.findMany({
    where: {
      workspaceId,
      ...(after ? { externalId: { gt: after } } : {}),
      ...(q ? { OR: [{ title: { contains: q, mode: 'insensitive' } }, { body: { contains: q, mode: 'insensitive' } }, { externalId: { contains: q } }] } : {}),
    },
    orderBy: { externalId: 'asc' },
    take: limit + 1,
  });
  return { articles: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1]!.externalId : null };
}
