import type { DbClient } from '../../platform/db.js';

/** What an import would do: how many articles it would create and how many it would replace. */
export async function previewImport({ db, workspaceId, externalIds }: { db: DbClient; workspaceId: number; externalIds: string[] }) {
  const existing = await db.article.count({ where: { workspaceId, externalId: { in: externalIds } } });
  return { imported: externalIds.length, created: externalIds.length - existing, updated: existing };
}
