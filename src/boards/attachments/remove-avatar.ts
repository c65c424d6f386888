import type { UserChanged } from '../../accounts/users/user-changed.js';
import type { DbClient } from '../../platform/db.js';
import type { Effects } from '../../platform/after-commit.js';

/** Takes the user's picture off (initials on a colour again); idempotent. */
export async function removeAvatar(options: { db: DbClient; userId: number; effects: Effects; userChanged: UserChanged }) {
  const removed = await options.db.$transaction(async (tx) => {
    const [old] = await tx.$queryRaw<{ avatarKey: string | null }[]>`SELECT "avatarKey" FROM "User" WHERE id = ${options.userId} FOR UPDATE`;
    if (!old?.avatarKey) return false;
    await tx.deletedFile.create({ data: { storageKey: old.avatarKey } });
    await tx.user.update({ where: { id: options.userId }, data: { avatarKey: null, avatarType: null } });
    return true;
  });
  if (removed) {
    await options.userChanged(options.userId);
    options.effects.committed({ kind: 'file.deleted' });
  }
}
