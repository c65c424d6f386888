import { changeBoard } from '../activity/change-board.js';
import { notFound } from '../../platform/errors.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { lockBoards } from '../lock-boards.js';

/**
 * Revokes the board's pending invitation of `email` (board admins; activity `invitation.revoked`).
 * The board is locked as adding a member locks it, so a revocation and a re-invitation of the
 * same address are applied one after the other. No pending invitation (never, accepted, or
 * expired): 404.
 */
export async function revokeInvitation(ctx: BoardContext & { boardId: number; email: string }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', role);
  const email = ctx.email.toLowerCase();
  await changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const pending = await tx.invitation.findUnique({ where: { boardId_email: { boardId: ctx.boardId, email } } });
    if (!pending || pending.expiresAt <= new Date()) throw notFound('invitation: not found');
    await tx.invitation.delete({ where: { id: pending.id } });
    await record({ boardId: ctx.boardId, type: 'invitation.revoked', data: { email, role: pending.role } });
  });
}
