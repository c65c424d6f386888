import type { PrismaClient } from '../../platform/db.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { composeMail, freeText, PRODUCT } from '../../mail/compose.js';
import type { Effects } from '../../platform/after-commit.js';
import { recordMail } from '../../mail/record-mail.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import { hashToken, isWellFormedToken } from '../credentials/tokens.js';
import type { UserChanged } from '../users/user-changed.js';

export interface ConfirmEmailChangeOptions {
  db: PrismaClient;
  /** What follows the commit ('mail.queued' wakes the mail worker). */
  effects: Effects;
  /** The signed-in account: only the one that asked may confirm (someone else opening the mail cannot). */
  userId: number;
  token: string;
  userChanged: UserChanged;
}

const unknownLink = () => notFound('link: not valid (it was used or replaced by a newer request), or it is for another account than the one signed in');

/**
 * Opens an e-mail confirmation link (eml_…): the account that asked now signs in with the new
 * address, and the old address is told (a mail in the same transaction). 404 when the link is
 * unknown, used, replaced or another account's; 410 when expired; 409 when another account took
 * the address meanwhile.
 */
export async function confirmEmailChange({ db, effects, userId, token, userChanged }: ConfirmEmailChangeOptions) {
  if (!isWellFormedToken(token, 'eml_')) throw unknownLink();
  const change = await db.emailChange.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!change || change.userId !== userId || change.user.status !== 'active') throw unknownLink();
  if (change.expiresAt <= new Date()) throw new AppError(410, 'gone', 'link: expired; ask for the change again from your account page');
  const taken = await db.user.findUnique({ where: { email: change.newEmail }, select: { id: true } });
  if (taken) throw conflict('email: another account uses this address by now');
  const oldEmail = change.user.email;
  const user = await db.$transaction(async (tx) => {
    // Deleted first, so two tabs opening one link cannot both apply it.
    const { count } = await tx.emailChange.deleteMany({ where: { id: change.id, tokenHash: change.tokenHash } });
    if (count === 0) throw unknownLink();
    const updated = await tx.user.update({ where: { id: userId }, data: { email: change.newEmail } });
    await recordMail(tx, {
      key: `email-changed:${change.id}:${change.tokenHash.slice(0, 16)}`,
      kind: 'email-changed',
      to: oldEmail,
      subject: `Your ${PRODUCT} e-mail address was changed`,
      ...composeMail({
        greeting: `Hello ${freeText(updated.name)},`,
        paragraphs: [`Your ${PRODUCT} account now signs in with ${change.newEmail} instead of this address (${oldEmail}).`],
        footer: ['If you did not make this change, ask your site administrator to look at your account at once.'],
      }),
    });
    return updated;
  });
  effects.committed({ kind: 'mail.queued' });
  // Sessions and keys carry the address: read them again.
  forgetCredentials(db);
  await userChanged(userId);
  return user;
}
