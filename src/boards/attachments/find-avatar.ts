import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { isStorageKey } from './storage-keys.js';
import { avatarUrl } from '../presenters.js';

/** The user's own picture's URL, or null. */
export async function findOwnAvatar(db: DbClient, userId: number) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { avatarKey: true } });
  return avatarUrl(user?.avatarKey ?? null);
}

/** The picture a key names, for any signed-in caller (the key is only ever shown to those who see its owner). */
export async function findAvatar(db: DbClient, key: string) {
  const user = isStorageKey(key) ? await db.user.findUnique({ where: { avatarKey: key }, select: { id: true, avatarKey: true, avatarType: true, updatedAt: true } }) : null;
  if (!user?.avatarKey || !user.avatarType) throw notFound('avatar: not found');
  return { key: user.avatarKey, mimeType: user.avatarType };
}
