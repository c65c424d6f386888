import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import type { WidgetUpdate } from '../schemas.js';

/** Changes a widget's settings (workspaceId absent: any workspace's, for the admin CLI). */
export async function updateWidget({ db, workspaceId, widgetId, changes }: { db: PrismaClient; workspaceId?: number | undefined; widgetId: string; changes: WidgetUpdate }) {
  const data = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (data.origins) data.origins = [...new Set(changes.origins)];
  const { count } = await db.widget.updateMany({ where: { id: widgetId, ...(workspaceId !== undefined ? { workspaceId } : {}) }, data });
  if (count === 0) throw notFound(`no widget "${widgetId}"`);
  return db.widget.findUniqueOrThrow({ where: { id: widgetId } });
}
