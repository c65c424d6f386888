import { changeBoard, type Tx } from '../activity/change-board.js';
import { badRequest } from '../../platform/errors.js';
import { requireLabel, requireRole } from '../access.js';
import { changeCardParts, touchCards } from '../cards/card-change.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import { withRetry } from '../retry.js';
import type { LabelView } from '../schemas.js';

type Color = LabelView['color'];

/** A new label on the board (admins and members). */
export async function createLabel(ctx: BoardContext & { boardId: number; name: string; color: Color }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'label.write', role);
  return changeBoard(ctx, async (tx, record) => {
    const label = await tx.label.create({ data: { boardId: ctx.boardId, name: ctx.name, color: ctx.color } });
    await record({ boardId: label.boardId, type: 'label.created', data: { labelId: label.id, label: presentLabel(label) } });
    return label;
  });
}

/** Renames or recolours a label. */
export async function updateLabel(ctx: BoardContext & { labelId: number; name?: string | undefined; color?: Color | undefined }) {
  const { row, role } = await requireLabel(ctx.db, ctx.actor, ctx.labelId);
  authorize(ctx.actor, 'label.write', role);
  return changeBoard(ctx, async (tx, record) => {
    const label = await tx.label.update({ where: { id: row.id }, data: { name: ctx.name, color: ctx.color } });
    await record({ boardId: label.boardId, type: 'label.updated', data: { labelId: label.id, label: presentLabel(label) } });
    return label;
  });
}

/** Deletes a label; the cards that had it lose it (their versions grow). */
export async function deleteLabel(ctx: BoardContext & { labelId: number }) {
  const { row, role } = await requireLabel(ctx.db, ctx.actor, ctx.labelId);
  authorize(ctx.actor, 'label.write', role);
  await withRetry(() =>
    changeBoard(ctx, async (tx, record) => {
      // The label first: no card can take it while its cards are collected.
      const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "Label" WHERE id = ${row.id} FOR UPDATE`;
      if (!locked) return null;
      const cards = await tx.cardLabel.findMany({ where: { labelId: row.id }, select: { cardId: true } });
      const cardIds = cards.map((c) => c.cardId);
      await touchCards(tx, cardIds);
      await tx.label.delete({ where: { id: row.id } });
      await record({ boardId: row.boardId, type: 'label.deleted', data: { labelId: row.id, label: presentLabel(row), cardIds } });
      return null;
    }),
  );
}

/** The label must be one of the card's board (400 otherwise: the client named the wrong one). */
async function labelOnBoard(tx: Tx, labelId: number, boardId: number) {
  const label = await tx.label.findUnique({ where: { id: labelId }, select: { boardId: true } });
  if (!label || label.boardId !== boardId) throw badRequest(`labelId: label ${labelId} is not on this card's board`);
}

/** Puts a label on a card; idempotent (no new version or activity when it is already there). */
export async function addCardLabel(ctx: BoardContext & { cardId: number; labelId: number }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    await labelOnBoard(tx, ctx.labelId, card.boardId);
    const added = await tx.cardLabel.createMany({ data: [{ cardId: card.id, labelId: ctx.labelId }], skipDuplicates: true });
    return { activity: added.count ? { type: 'card.label_added', data: { labelId: ctx.labelId } } : null, result: null };
  });
}

/** Takes a label off a card; idempotent. */
export async function removeCardLabel(ctx: BoardContext & { cardId: number; labelId: number }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    await labelOnBoard(tx, ctx.labelId, card.boardId);
    const removed = await tx.cardLabel.deleteMany({ where: { cardId: card.id, labelId: ctx.labelId } });
    return { activity: removed.count ? { type: 'card.label_removed', data: { labelId: ctx.labelId } } : null, result: null };
  });
}

/** Assigns a member of the card's board to it; idempotent. */
export async function addAssignee(ctx: BoardContext & { cardId: number; userId: number }) {
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

/** Unassigns a user from a card; idempotent. */
export async function removeAssignee(ctx: BoardContext & { cardId: number; userId: number }) {
  return changeCardParts(ctx, 'card.assign', async (tx, card) => {
    const removed = await tx.cardAssignee.deleteMany({ where: { cardId: card.id, userId: ctx.userId } });
    return { activity: removed.count ? { type: 'card.member_removed', data: { userId: ctx.userId } } : null, result: null };
  });
}
