import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { requireItem } from '../access.js';
import { authorize } from '../policy.js';

/** One checklist item, on a card the actor can reach (any role). */
export async function getItem({ db, actor, itemId }: { db: DbClient; actor: Actor; itemId: number }) {
  const { row, role } = await requireItem(db, actor, itemId);
  authorize(actor, 'board.read', role);
  const item = await db.checklistItem.findUnique({ where: { id: row.id } });
  if (!item) throw notFound('item: not found'); // deleted in between
  return item;
}
