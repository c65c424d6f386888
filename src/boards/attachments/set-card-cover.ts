import { badRequest } from '../../platform/errors.js';
import { requireCard } from '../access.js';
import { changeCardParts } from '../change-card-parts.js';
import type { BoardContext } from '../context.js';
import { authorize } from '../policy.js';
import type { AttachmentStore } from './attachment-store.js';
import { COVER_TYPES } from './cover-types.js';
import { checkPictureSize } from './picture-size.js';

/** The stored file whole (attachments are at most MAX_ATTACHMENT_BYTES), or null when the store has none. */
async function storedBytes(store: AttachmentStore, key: string): Promise<Buffer | null> {
  const blob = await store.open(key);
  if (!blob) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A picture too large to show on every viewer's board (picture-size.ts: more than 8,000 pixels a
 * side or 40 megapixels, an animation's frames added up) is 400. Read before the change, outside its
 * transaction (reading a 25 MB file must not hold the card's lock), after the caller's right to it.
 */
async function checkCoverSize(ctx: BoardContext & { cardId: number; attachmentId: number; store: AttachmentStore }) {
  const { card, role } = await requireCard(ctx.db, ctx.actor, ctx.cardId);
  authorize(ctx.actor, 'card.write', role);
  const attachment = await ctx.db.attachment.findUnique({ where: { id: ctx.attachmentId }, select: { cardId: true, mimeType: true, storageKey: true } });
  // Not this card's, or not a picture: the change below says so.
  if (!attachment || attachment.cardId !== card.id || !(COVER_TYPES as readonly string[]).includes(attachment.mimeType)) return;
  const bytes = attachment.storageKey === null ? null : await storedBytes(ctx.store, attachment.storageKey);
  if (bytes) checkPictureSize(bytes, attachment.mimeType, 'attachmentId', 'a cover');
}

/**
 * Shows one of the card's image attachments on its tile (admins and members; activity
 * `card.updated`). An attachment of another card, a link, one that is not a PNG, JPEG, GIF or WebP
 * picture, or a picture too large (checkCoverSize), is 400. Setting the cover it already has changes nothing.
 */
export async function setCardCover(ctx: BoardContext & { cardId: number; attachmentId: number; expectedVersion?: number | undefined; store: AttachmentStore }) {
  await checkCoverSize(ctx);
  return changeCardParts(ctx, 'card.write', async (tx, card) => {
    const attachment = await tx.attachment.findUnique({ where: { id: ctx.attachmentId }, select: { cardId: true, mimeType: true, url: true } });
    if (!attachment || attachment.cardId !== card.id) throw badRequest('attachmentId: not an attachment of this card');
    if (attachment.url !== null) throw badRequest('attachmentId: a link, not a file here; a cover must be an uploaded picture');
    if (!(COVER_TYPES as readonly string[]).includes(attachment.mimeType)) {
      throw badRequest(`attachmentId: not a picture (${attachment.mimeType}); a cover must be a PNG, JPEG, GIF or WebP image`);
    }
    if (card.coverAttachmentId === ctx.attachmentId) return { activity: null, result: null };
    await tx.card.update({ where: { id: card.id }, data: { coverAttachmentId: ctx.attachmentId } });
    return { activity: { type: 'card.updated', data: { listId: card.listId } }, result: null };
  });
}
