import { changeBoard } from '../activity/change-board.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentCustomField } from '../presenters.js';
import { checkFieldOptions, type FieldType } from './check-field-options.js';

/** A new custom field on the board (board admins). */
export async function createCustomField(ctx: BoardContext & { boardId: number; name: string; type: FieldType; options?: string[] | undefined }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'field.define', role);
  const options = ctx.options ?? [];
  checkFieldOptions(ctx.type, options);
  return changeBoard(ctx, async (tx, record) => {
    const field = await tx.customField.create({ data: { boardId: ctx.boardId, name: ctx.name, type: ctx.type, options } });
    await record({ boardId: field.boardId, type: 'custom_field.created', data: { fieldId: field.id, customField: presentCustomField(field) } });
    return field;
  });
}
