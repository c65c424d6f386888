import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { requireChecklist } from '../access.js';
import { authorize } from '../policy.js';

/** One checklist with its items by position, on a card the actor can reach (any role). */
export async function getChecklist({ db, actor, checklistId }: { db: DbClient; actor: Actor; checklistId: number }) {
  const { row, role } = await requireChecklist(db, actor, checklistId);
  authorize(actor, 'board.read', role);
  const checklist = await db.checklist.findUnique({ where: { id: row.id }, include: { items: { orderBy: { position: 'asc' } } } });
  if (!checklist) throw notFound('checklist: not found'); // deleted in between
  return checklist;
}
