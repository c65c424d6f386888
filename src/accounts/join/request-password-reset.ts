import type { PrismaClient } from '../../platform/db.js';
import { forbidden } from '../../platform/errors.js';
import { composeMail, freeText, PRODUCT } from '../../mail/compose.js';
import type { MailOutbox } from '../../mail/outbox.js';
import type { Effects } from '../../platform/after-commit.js';
import { recordMail } from '../../mail/record-mail.js';
import { createSetupLink } from './create-setup-link.js';

/** How long a reset link by mail works. */
export const RESET_LINK_MINUTES = 60;
/** At most this many reset mails per address, and per account, in RESET_WINDOW_MS. */
export const RESETS_PER_WINDOW = 3;
export const RESET_WINDOW_MS = 3_600_000;

export interface RequestPasswordResetOptions {
  db: PrismaClient;
  /** Whether this server sends mail (refused when not). */
  mail: MailOutbox;
  /** What follows the commit ('mail.queued' wakes the mail worker). */
  effects: Effects;
  /** Lower-cased by the schema. */
  email: string;
  /** The web page that opens a token (`<origin>/join/<token>`). */
  linkFor: (token: string) => string;
}

/**
 * "Forgot password?": mails an active account's address a single-use link (set_…, valid
 * RESET_LINK_MINUTES) that sets a new password and ends every session. Says nothing either way:
 * an unknown, blocked or deleted address, or one past its allowance (RESETS_PER_WINDOW per address
 * and per account an hour, counted from the mail outbox, so every process sees the same count),
 * gets no mail and the same answer. A server without SMTP: 403 (ask a site administrator).
 */
export async function requestPasswordReset({ db, mail, effects, email, linkFor }: RequestPasswordResetOptions): Promise<void> {
  if (!mail.enabled) throw forbidden('email: this server sends no mail; ask a site administrator for a link to set a new password');
  const user = await db.user.findUnique({ where: { email }, select: { id: true, name: true, email: true, status: true } });
  if (!user || user.status !== 'active') return;
  const since = new Date(Date.now() - RESET_WINDOW_MS);
  await db.$transaction(async (tx) => {
    // The count and the new row in one transaction, serialised per account, so parallel requests cannot each pass the count.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('password-reset'), ${user.id}::int)`;
    const recent = await tx.mailMessage.count({
      where: { kind: 'password-reset', createdAt: { gt: since }, OR: [{ recipient: user.email }, { key: { startsWith: `password-reset:${user.id}:` } }] },
    });
    if (recent >= RESETS_PER_WINDOW) return;
    const { token } = await createSetupLink({ db: tx, userId: user.id, purpose: 'reset', validForMs: RESET_LINK_MINUTES * 60_000 });
    await recordMail(tx, {
      key: `password-reset:${user.id}:${token.slice(4, 20)}`,
      kind: 'password-reset',
      to: user.email,
      subject: `Set a new password for ${PRODUCT}`,
      ...composeMail({
        greeting: `Hello ${freeText(user.name)},`,
        paragraphs: [
          `Someone (we hope you) asked to set a new password for your ${PRODUCT} account, ${user.email}.`,
          `This link works once, for ${RESET_LINK_MINUTES} minutes. Setting a new password signs you out everywhere else.`,
        ],
        action: { label: 'Set a new password', url: linkFor(token) },
        footer: ['If you did not ask for this, ignore this mail: your password stays as it is.'],
      }),
    });
  });
  effects.committed({ kind: 'mail.queued' });
}
