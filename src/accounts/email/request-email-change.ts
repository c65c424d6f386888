import type { PrismaClient } from '../../platform/db.js';
import { badRequest, conflict, forbidden } from '../../platform/errors.js';
import { composeMail, PRODUCT, quoted } from '../../mail/compose.js';
import type { MailOutbox } from '../../mail/outbox.js';
import type { Effects } from '../../platform/after-commit.js';
import { mailCapReached, requireMailAllowance } from '../../mail/caps.js';
import { recordMail } from '../../mail/record-mail.js';
import { verifyPassword } from '../credentials/passwords.js';
import { generateToken, hashToken } from '../credentials/tokens.js';

/** How long a confirmation link works. */
export const EMAIL_CHANGE_HOURS = 24;
/** At most this many e-mail change requests (each a mail to the address named) per account an hour: a mail to an address the requester need not own, so nobody can make the server flood it. */
export const EMAIL_CHANGES_PER_HOUR = 5;

export interface RequestEmailChangeOptions {
  db: PrismaClient;
  /** Whether this server sends mail (refused when not). */
  mail: MailOutbox;
  /** What follows the commit ('mail.queued' wakes the mail worker). */
  effects: Effects;
  userId: number;
  /** Lower-cased by the schema. */
  newEmail: string;
  currentPassword: string | undefined;
  /** The web page that opens a token (`<origin>/join/<token>`). */
  linkFor: (token: string) => string;
}

/** Refused on a server that sends no mail: nothing could confirm the new address. */
export const NO_MAIL_MESSAGE = 'email: this server sends no mail, so it cannot confirm a new address; ask a site administrator to change it';

/**
 * A person asks to use a new e-mail address. Nothing changes yet: a link is mailed to the new
 * address (in the same transaction as the request, through the mail outbox) and the change takes
 * effect only when it is opened by the same account (confirmEmailChange), so nobody can take an
 * address they cannot read. A new request replaces the previous one. Needs the current password;
 * an address another account uses is 409; a server without SMTP refuses (403: site admins change
 * addresses there). 429 with Retry-After past EMAIL_CHANGES_PER_HOUR requests of the account, or
 * past the address's day of confirmation mails (MAIL_CAPS): the requester is signed in, and the
 * refusal tells them nothing about anyone else.
 */
export async function requestEmailChange({ db, mail, effects, userId, newEmail, currentPassword, linkFor }: RequestEmailChangeOptions) {
  if (!mail.enabled) throw forbidden(NO_MAIL_MESSAGE);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (currentPassword === undefined) throw badRequest('currentPassword: required to change your e-mail address');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('currentPassword: that is not your current password');
  const taken = await db.user.findUnique({ where: { email: newEmail }, select: { id: true } });
  if (taken) throw conflict('email: another account uses this address');
  const invited = await db.invitation.findFirst({ where: { email: newEmail, expiresAt: { gt: new Date() } }, select: { id: true } });
  if (invited) throw conflict('email: this address has a pending invitation; accept it from its link instead');
  const token = generateToken('eml_');
  const tokenHash = hashToken(token);
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_HOURS * 3_600_000);
  const link = linkFor(token);
  await db.$transaction(async (tx) => {
    // Per account: counted from the outbox (keys `email-change:<user>:…`), serialised per account.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('email-change'), ${userId}::int)`;
    const hourAgo = new Date(Date.now() - 3_600_000);
    const mine = await tx.mailMessage.findMany({
      where: { kind: 'email-change', key: { startsWith: `email-change:${userId}:` }, createdAt: { gt: hourAgo } },
      select: { createdAt: true },
      orderBy: { createdAt: 'desc' },
      take: EMAIL_CHANGES_PER_HOUR,
    });
    if (mine.length >= EMAIL_CHANGES_PER_HOUR) {
      const retryAfter = Math.max(1, Math.ceil((mine[mine.length - 1]!.createdAt.getTime() + 3_600_000 - Date.now()) / 1000));
      throw mailCapReached('email', `${EMAIL_CHANGES_PER_HOUR} e-mail change requests an hour`, retryAfter);
    }
    await requireMailAllowance(tx, { kind: 'email-change', to: newEmail });
    const change = await tx.emailChange.upsert({
      where: { userId },
      create: { userId, newEmail, tokenHash, expiresAt },
      update: { newEmail, tokenHash, expiresAt, createdAt: new Date() },
    });
    await recordMail(tx, {
      key: `email-change:${userId}:${change.id}:${tokenHash.slice(0, 16)}`,
      kind: 'email-change',
      to: newEmail,
      subject: `Confirm your new e-mail address for ${PRODUCT}`,
      ...composeMail({
        // To an address nobody has confirmed yet: the requester's chosen name is quoted, not a greeting, so a name like "Security team: reset at …" cannot pose as our own words.
        greeting: 'Hello,',
        paragraphs: [
          `The ${PRODUCT} account ${quoted(user.name)} (${user.email}) asked to sign in with this address (${newEmail}) from now on.`,
          'The change takes effect once this link is opened, signed in to that account. It works for 24 hours.',
        ],
        action: { label: 'Confirm this address', url: link },
        footer: ['If you did not ask for this, ignore this mail: nothing changes.'],
      }),
    });
  });
  effects.committed({ kind: 'mail.queued' });
  return { email: newEmail, expiresAt };
}
