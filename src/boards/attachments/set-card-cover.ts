import { badRequest } from '../../platform/errors.js';
import { changeCardParts } from '../card-change.js';
import type { BoardContext } from '../context.js';
import { COVER_TYPES } from './cover-types.js';

/**
 * Shows one of the card's image attachments on its tile (admins and members; activity
 * `card.updated`). An attachment of another card, or one that is not a PNG, JPEG, GIF or WebP
 * picture, is 400. Setting the cover it already has changes nothing.
 */
export async function setCardCover(ctx: BoardContext & { cardId: number; attachmentId: number; expectedVersion?: number | undefined }) {
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    const attachment = await tx.attachment.findUnique({ where: { id: ctx.attachmentId }, select: { cardId: true, mimeType: true } });
    if (!attachment || attachment.cardId !== card.id) throw badRequest('attachmentId: not an attachment of this card');
    if (!(COVER_TYPES as readonly string[]).includes(attachment.mimeType)) {
      throw badRequest(`attachmentId: not a picture (${attachment.mimeType}); a cover must be a PNG, JPEG, GIF or WebP image`);
    }
    if (card.coverAttachmentId === ctx.attachmentId) return { activity: null, result: null };
    await tx.card.update({ where: { id: card.id }, data: { coverAttachmentId: ctx.attachmentId } });
    return { activity: { type: 'card.updated', data: { listId: card.listId } }, result: null };
  });
}
