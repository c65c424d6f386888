import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { badRequest } from '../../platform/errors.js';
import { authorize } from '../policy.js';
import { presentLabel } from '../presenters.js';
import type { LabelView } from '../schemas.js';

export type Color = LabelView['color'];
export type Shade = LabelView['shade'];

/** A shade is a shade of a colour: refused on a label without one (one wording for create and update). */
export function checkShade(color: Color, shade: Shade) {
  if (shade !== null && color === null) throw badRequest('shade: a label without a colour has no shade (give a color, or shade null)');
}

/** A new label on the board (admins and members). */
export async function createLabel(ctx: BoardContext & { boardId: number; name: string; color: Color; shade?: Shade | undefined }) {
  const shade = ctx.shade ?? null;
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'label.write', role);
  checkShade(ctx.color, shade);
  return changeBoard(ctx, async (tx, record) => {
    const label = await tx.label.create({ data: { boardId: ctx.boardId, name: ctx.name, color: ctx.color, shade } });
    await record({ boardId: label.boardId, type: 'label.created', data: { labelId: label.id, label: presentLabel(label) } });
    return label;
  });
}
