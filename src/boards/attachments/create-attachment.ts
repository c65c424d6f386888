import { requireCard } from '../access.js';
import { sniffMimeType } from './sniff-mime-type.js';
import type { AttachmentStore } from './attachment-store.js';
import { receiveUpload, type UploadPart } from './receive-upload.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import { presentAttachment } from '../presenters.js';

/**
 * Adds the uploaded file to a card. The card and the actor's right to write to it are checked
 * before a byte is read, so nothing is stored for a caller who would be refused; the type is
 * sniffed from the bytes; the row is written (activity `attachment.created`) after the file is
 * in place, and the file is removed again if that fails.
 */
export async function createAttachment(
  ctx: BoardContext & { cardId: number; parts: AsyncIterable<UploadPart>; bodyLength?: number | undefined; store: AttachmentStore; maxBytes: number },
) {
  const { role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
  authorize(ctx.actor, 'attachment.write', role);
  const upload = await receiveUpload(ctx);
  const mimeType = sniffMimeType(upload.head, upload.declaredType);
  try {
    await upload.blob.commit();
    const { result } = await changeCardParts(ctx, 'attachment.write', async (tx, card) => {
      const row = await tx.attachment.create({
        data: { cardId: card.id, filename: upload.filename, mimeType, size: upload.blob.size, storageKey: upload.blob.key },
      });
      const attachment = presentAttachment(row);
      return { activity: { type: 'attachment.created', data: { attachmentId: attachment.id, attachment } }, result: attachment };
    });
    return result;
  } catch (error) {
    // If even this fails, the start-up sweep removes the file (no row names it).
    await upload.blob.discard().catch(() => {});
    throw error;
  }
}
