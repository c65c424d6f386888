import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { keepAnAdmin, requireMember, withUser } from './member-rows.js';
import { authorize, type BoardRole } from '../policy.js';
import { lockBoards } from '../lock-boards.js';
import { presentMember } from '../presenters.js';

/** Changes a member's role (admins only); demoting the last admin is a 409. */
export async function updateMember(ctx: BoardContext & { boardId: number; userId: number; role: BoardRole }) {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  return changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const member = await requireMember(tx, ctx.boardId, ctx.userId);
    if (member.role === 'admin' && ctx.role !== 'admin') await keepAnAdmin(tx, ctx.boardId, ctx.userId);
    const updated = await tx.boardMember.update({
      where: { boardId_userId: { boardId: ctx.boardId, userId: ctx.userId } },
      data: { role: ctx.role },
      include: withUser,
    });
    await record({ boardId: ctx.boardId, type: 'member.updated', data: { userId: ctx.userId, member: presentMember(updated), from: { role: member.role } } });
    return updated;
  });
}
