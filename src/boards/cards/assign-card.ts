import type { Tx } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';

/** Assigns a member of the card's board to it; idempotent. */
export async function assignCard(ctx: BoardContext & { cardId: number; userId: number }) {
  // The membership is held (shared) until the commit: a removal from the board waits, then
  // finds this assignment and undoes it; or it went first, and the user is no member here.
  let isMember = false;
  const lockMembership = async (tx: Tx, card: { boardId: number }) => {
    const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "BoardMember" WHERE "boardId" = ${card.boardId} AND "userId" = ${ctx.userId} FOR SHARE`;
    isMember = rows.length > 0;
  };
  return changeCardParts(
    ctx,
    'card.assign',
    async (tx, card) => {
      if (!isMember) throw badRequest(`userId: user ${ctx.userId} is not a member of this card's board`);
      const added = await tx.cardAssignee.createMany({ data: [{ cardId: card.id, userId: ctx.userId }], skipDuplicates: true });
      return { activity: added.count ? { type: 'card.member_added', data: { userId: ctx.userId } } : null, result: null };
    },
    lockMembership,
  );
}
