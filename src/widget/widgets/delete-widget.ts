import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/** Deletes a widget and its visitors (their conversations stay, as answer conversations). */
export async function deleteWidget({ db, workspaceId, widgetId }: { db: PrismaClient; workspaceId?: number | undefined; widgetId: string }) {
  const { count } = await db.widget.deleteMany({ where: { id: widgetId, ...(workspaceId !== undefined ? { workspaceId } : {}) } });
  if (count === 0) throw notFound(`no widget "${widgetId}"`);
}
