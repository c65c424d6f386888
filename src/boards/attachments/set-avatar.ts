import type { UserChanged } from '../../accounts/users/user-changed.js';
import type { DbClient } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { sniffMimeType } from './sniff-mime-type.js';
import type { AttachmentStore } from './attachment-store.js';
import { receiveUpload, type UploadPart } from './receive-upload.js';
import { COVER_TYPES } from './cover-types.js';
import { checkPictureSize } from './picture-size.js';
import { avatarUrl } from '../presenters.js';
import type { Effects } from '../../platform/after-commit.js';

/**
 * A person's avatar picture: kept in the attachment store like a card's files, named on the user
 * row by its random key. Its URL carries the key, so it changes with every new picture (cached for
 * good by browsers) and cannot be guessed by someone who never saw it on a board.
 */

/** An avatar is a small picture: at most this many bytes (or MAX_ATTACHMENT_BYTES, when smaller). */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/**
 * Replaces the user's picture with the uploaded one (PNG, JPEG, GIF or WebP, at most
 * MAX_PICTURE_SIDE a side and MAX_PICTURE_PIXELS, else 400); the old file is purged.
 */
export async function setAvatar(options: {
  db: DbClient;
  userId: number;
  parts: AsyncIterable<UploadPart>;
  bodyLength?: number | undefined;
  store: AttachmentStore;
  maxBytes: number;
  userChanged: UserChanged;
  /** What follows the commit ('file.deleted' purges the old picture). */
  effects: Effects;
}): Promise<string> {
  // The whole picture is kept (at most maxBytes, 2 MB by default) to read every frame's size.
  const upload = await receiveUpload({ ...options, headBytes: options.maxBytes });
  const mimeType = sniffMimeType(upload.head, upload.declaredType);
  try {
    if (!(COVER_TYPES as readonly string[]).includes(mimeType)) throw badRequest(`file: not a picture (${mimeType}); an avatar must be a PNG, JPEG, GIF or WebP image`);
    checkPictureSize(upload.head, mimeType, 'file', 'an avatar');
  } catch (error) {
    await upload.blob.discard();
    throw error;
  }
  try {
    await upload.blob.commit();
    await options.db.$transaction(async (tx) => {
      const [old] = await tx.$queryRaw<{ avatarKey: string | null }[]>`SELECT "avatarKey" FROM "User" WHERE id = ${options.userId} FOR UPDATE`;
      if (old?.avatarKey) await tx.deletedFile.create({ data: { storageKey: old.avatarKey } });
      await tx.user.update({ where: { id: options.userId }, data: { avatarKey: upload.blob.key, avatarType: mimeType } });
    });
  } catch (error) {
    await upload.blob.discard().catch(() => {});
    throw error;
  }
  await options.userChanged(options.userId);
  options.effects.committed({ kind: 'file.deleted' });
  return avatarUrl(upload.blob.key)!;
}
