import { changeBoard } from '../activity/change-board.js';
import { requireLabel } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import { type Color, type Shade, checkShade } from './create-label.js';

/** Renames or recolours a label. A colour given without a shade keeps the shade; no colour drops it. */
export async function updateLabel(ctx: BoardContext & { labelId: number; name?: string | undefined; color?: Color | undefined; shade?: Shade | undefined }) {
  const { row, role } = await requireLabel(ctx.db, ctx.actor, ctx.labelId);
  authorize(ctx.actor, 'label.write', role);
  const color = ctx.color === undefined ? (row.color as Color) : ctx.color;
  if (ctx.shade !== undefined) checkShade(color, ctx.shade);
  const shade = color === null ? null : ctx.shade;
  return changeBoard(ctx, async (tx, record) => {
    const label = await tx.label.update({ where: { id: row.id }, data: { name: ctx.name, color: ctx.color, shade } });
    await record({ boardId: label.boardId, type: 'label.updated', data: { labelId: label.id, label: presentLabel(label) } });
    return label;
  });
}
