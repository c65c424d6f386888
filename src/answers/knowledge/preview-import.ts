import type { DbClient } from '../../platform/db.js';

/** What an import would do: how many articles it would create, and which it would replace. */
export async function previewImport({ db, workspaceId, externalIds }: { db: DbClient; workspaceId: number; externalIds: string[] }) {
  const existing = await db.article.findMany({ where: { workspaceId, externalId: { in: externalIds } }, select: { externalId: true }, orderBy: { externalId: 'asc' } });
  return { imported: externalIds.length, created: externalIds.length - existing.length, updated: existing.length, updatedIds: existing.map((a) => a.externalId) };
}
