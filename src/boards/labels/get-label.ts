import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireLabel } from '../access.js';
import { authorize } from '../policy.js';

/** One label of a board the actor can reach, with any role there. */
export async function getLabel({ db, actor, labelId }: { db: DbClient; actor: Actor; labelId: number }) {
  const { row, role } = await requireLabel(db, actor, labelId);
  authorize(actor, 'board.read', role);
  return row;
}
