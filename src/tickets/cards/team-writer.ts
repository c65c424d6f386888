import type { Actor } from '../../accounts/credentials/auth.js';
import { rolesAllowing } from '../../boards/policy.js';
import type { DbClient } from '../../platform/db.js';

/**
 * Tickets as cards: the one rule for "the workspace's team can write the board" — a member of the
 * workspace who has a card-writing role on the board (owners first, then by id). The board changes
 * the tickets module makes (a ticket's card, its moves, the requester's comments) are made as that
 * member (their reach and role are checked by the boards module as for any change), marked
 * `via tickets` in the activity; null when nobody of the team can write the board any more.
 * `preferUserId`: that person when they are such a member (a reply on the card is theirs).
 */
export async function teamWriter({ db, workspaceId, boardId, preferUserId = null }: { db: DbClient; workspaceId: number; boardId: number; preferUserId?: number | null }): Promise<Actor | null> {
  const [row] = await db.$queryRaw<{ id: number; name: string; email: string }[]>`
    SELECT u.id, u.name, u.email FROM "WorkspaceMember" wm
      JOIN "BoardMember" bm ON bm."userId" = wm."userId" AND bm."boardId" = ${boardId}
      JOIN "User" u ON u.id = wm."userId"
    WHERE wm."workspaceId" = ${workspaceId} AND u.status = 'active' AND bm.role::text = ANY(${rolesAllowing('card.write')}::text[])
    ORDER BY (u.id = ${preferUserId}::int) IS TRUE DESC, (wm.role::text = 'owner') DESC, (wm.role::text = 'admin') DESC, u.id
    LIMIT 1`;
  if (!row) return null;
  return {
    userId: row.id,
    name: row.name,
    email: row.email,
    siteAdmin: false,
    via: 'key',
    keyId: null,
    sessionId: null,
    permission: 'write',
    boardIds: null,
    client: 'tickets',
  };
}
