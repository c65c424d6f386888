import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { requireRole } from '../access.js';
import { authorize, type BoardRole } from '../policy.js';

export interface InvitationRow {
  email: string;
  role: BoardRole;
  expiresAt: Date;
  createdAt: Date;
  invitedById: number;
  inviterName: string;
}

/** The board's pending invitations (not accepted, not expired), oldest first; board admins only. */
export async function listInvitations({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  const role = await requireRole(db, actor, boardId);
  authorize(actor, 'members.manage', role);
  return db.$queryRaw<InvitationRow[]>`
    SELECT i.email, i.role::text AS role, i."expiresAt", i."createdAt", i."invitedById", coalesce(u.name, '') AS "inviterName"
    FROM "Invitation" i LEFT JOIN "User" u ON u.id = i."invitedById"
    WHERE i."boardId" = ${boardId} AND i."expiresAt" > now()
    ORDER BY i."createdAt", i.id`;
}
