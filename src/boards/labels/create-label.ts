import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import type { LabelView } from '../schemas.js';

export type Color = LabelView['color'];

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
