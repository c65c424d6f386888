import { notFound } from '../../platform/errors.js';
import { requireAttachment } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';

/**
 * Deletes an attachment (admins and members; activity `attachment.deleted`). Its file goes with
 * the row's "DeletedFile" entry, purged after the commit (the 'file.deleted' effect).
 */
export async function deleteAttachment(ctx: BoardContext & { attachmentId: number }) {
  const { row } = await requireAttachment(ctx.db, ctx.actor, ctx.attachmentId);
  await changeCardParts({ ...ctx, cardId: row.cardId }, 'attachment.write', async (tx, card) => {
    const { count } = await tx.attachment.deleteMany({ where: { id: row.id, cardId: card.id } });
    if (count === 0) throw notFound('attachment: not found');
    return { activity: { type: 'attachment.deleted', data: { attachmentId: row.id } }, result: null };
  });
  ctx.effects.committed({ kind: 'file.deleted' }); // its file, after the commit
}
