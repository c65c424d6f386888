import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import { touchCards } from '../touch-cards.js';
import type { BoardContext } from '../context.js';
import { keepAnAdmin } from './keep-an-admin.js';
import { requireMember } from './require-member.js';
import { authorize } from '../policy.js';
import { lockBoards } from '../lock-boards.js';
import { presentMember } from '../presenters.js';
import { withRetry } from '../retry.js';

/** Removes a member (admins only); removing the last admin is a 409. */
export async function removeMember(ctx: BoardContext & { boardId: number; userId: number }) {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  await withRetry(() => changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const member = await requireMember(tx, { boardId: ctx.boardId, userId: ctx.userId });
    if (member.role === 'admin') await keepAnAdmin(tx, { boardId: ctx.boardId, userId: ctx.userId });
    await tx.boardMember.delete({ where: { boardId_userId: { boardId: ctx.boardId, userId: ctx.userId } } });
    // Leaving a board unassigns the user's cards there.
    const assigned = await tx.cardAssignee.findMany({ where: { userId: ctx.userId, card: { boardId: ctx.boardId } }, select: { cardId: true } });
    const cardIds = assigned.map((a) => a.cardId);
    await touchCards(tx, cardIds);
    await tx.cardAssignee.deleteMany({ where: { userId: ctx.userId, cardId: { in: cardIds } } });
    await record({ boardId: ctx.boardId, type: 'member.removed', data: { userId: ctx.userId, member: presentMember(member), unassignedCardIds: cardIds } });
  }));
}
