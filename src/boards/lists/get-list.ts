import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireList } from '../access.js';
import { authorize } from '../policy.js';

/** One list the actor can reach (archived ones too), with any role on its board. */
export async function getList({ db, actor, listId }: { db: DbClient; actor: Actor; listId: number }) {
  const { list, role } = await requireList(db, actor, listId);
  authorize(actor, 'board.read', role);
  return list;
}
