import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { keepAnAdmin } from './keep-an-admin.js';
import { withUser } from './list-members.js';
import { requireMember } from './require-member.js';
import { authorize, type BoardRole } from '../policy.js';
import { lockBoards } from '../lock-boards.js';
import { presentMember } from '../presenters.js';

/** Changes a member's role (admins only); demoting the last admin is a 409. */
export async function updateMember(ctx: BoardContext & { boardId: number; userId: number; role: BoardRole }) {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  return changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const member = await requireMember(tx, { boardId: ctx.boardId, userId: ctx.userId });
    if (member.role === 'admin' && ctx.role !== 'admin') await keepAnAdmin(tx, { boardId: ctx.boardId, userId: ctx.userId });
    const updated = await tx.boardMember.update({
      where: { boardId_userId: { boardId: ctx.boardId, userId: ctx.userId } },
      data: { role: ctx.role },
      include: withUser,
    });
    await record({ boardId: ctx.boardId, type: 'member.updated', data: { userId: ctx.userId, member: presentMember(updated), from: { role: member.role } } });
    return updated;
  });
}
