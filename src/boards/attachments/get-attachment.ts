import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireAttachment } from '../access.js';
import { authorize } from '../policy.js';

/** One attachment's metadata (not its bytes: GET /attachments/{id}/download), with any role on its board. */
export async function getAttachment({ db, actor, attachmentId }: { db: DbClient; actor: Actor; attachmentId: number }) {
  const { row, role } = await requireAttachment(db, actor, attachmentId);
  authorize(actor, 'board.read', role);
  return row;
}
