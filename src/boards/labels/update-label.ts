import { changeBoard } from '../activity/change-board.js';
import { requireLabel } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import type { Color } from './create-label.js';

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
