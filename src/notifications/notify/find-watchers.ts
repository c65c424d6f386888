import type { ActivityView } from '../../boards/activity/present-activity.js';
import type { DbClient } from '../../platform/db.js';
import { WATCHED_CHANGES } from './choose-recipients.js';

/**
 * The watchers of the cards a page of activities changed (card id → user ids), read in one
 * statement (a query per activity was most of the notifier's work while cards moved by the
 * hundred a second).
 */
export async function findWatchers({ db, activities }: { db: DbClient; activities: ActivityView[] }): Promise<Map<number, number[]>> {
  const cardIds = new Set<number>();
  for (const activity of activities) {
    const cardId = (activity.data as { cardId?: unknown }).cardId;
    if (WATCHED_CHANGES[activity.type] && typeof cardId === 'number') cardIds.add(cardId);
  }
  const map = new Map<number, number[]>();
  if (!cardIds.size) return map;
  const rows = await db.cardWatch.findMany({ where: { cardId: { in: [...cardIds] } }, select: { cardId: true, userId: true } });
  for (const row of rows) {
    const watching = map.get(row.cardId);
    if (watching) watching.push(row.userId);
    else map.set(row.cardId, [row.userId]);
  }
  return map;
}
