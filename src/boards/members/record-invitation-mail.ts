import type { DbClient } from '../../platform/db.js';
import { composeMail, PRODUCT, quoted } from '../../mail/compose.js';
import type { MailOutbox } from '../../mail/outbox.js';
import { requireMailAllowance } from '../../mail/caps.js';
import { recordMail } from '../../mail/record-mail.js';

/** How an invitation reaches its address: the mail outbox, and the page its link opens. */
export interface InvitationMailer {
  mail: MailOutbox;
  /** `<origin>/join/<token>`. */
  linkFor: (token: string) => string;
}

/**
 * Writes the invitation's mail in the change's transaction, when the server sends mail: the
 * invitee gets the link themselves (the inviting admin still sees it, to copy). Whether one was
 * written; the caller reports 'mail.queued' after its commit. 429 (the change rolls back) when the address
 * had its day's invitation mails (MAIL_CAPS).
 */
export async function recordInvitationMail(
  tx: DbClient,
  mailer: InvitationMailer,
  invitation: { id: number; boardId: number; email: string; role: string; expiresAt: Date; invitedById: number; token: string },
): Promise<boolean> {
  if (!mailer.mail.enabled) return false;
  // An address gets at most MAIL_CAPS.invitation a day, re-sent links and re-invitations included: 429 past it, nothing changed.
  await requireMailAllowance(tx, { kind: 'invitation', to: invitation.email });
  const [board, inviter] = await Promise.all([
    tx.board.findUniqueOrThrow({ where: { id: invitation.boardId }, select: { name: true } }),
    tx.user.findUnique({ where: { id: invitation.invitedById }, select: { name: true } }),
  ]);
  // Names anyone can choose are quoted as names, with no link in them: a name like "Security team: reset at …" must not read as our own words.
  const who = inviter ? quoted(inviter.name) : 'A board admin';
  const boardName = quoted(board.name);
  return recordMail(tx, {
    key: `invitation:${invitation.id}:${invitation.token.slice(4, 20)}`,
    kind: 'invitation',
    to: invitation.email,
    subject: `${who} invited you to the board ${boardName} on ${PRODUCT}`,
    ...composeMail({
      greeting: 'Hello,',
      paragraphs: [
        `${who} invited you (${invitation.email}) to the board ${boardName} on ${PRODUCT}, as ${/^[aeiou]/.test(invitation.role) ? 'an' : 'a'} ${invitation.role}.`,
        `Open the link to choose your name and a password and join. It works until ${invitation.expiresAt.toISOString().slice(0, 10)}.`,
      ],
      action: { label: 'Join the board', url: mailer.linkFor(invitation.token) },
      footer: ['If you do not know who this is, ignore this mail.'],
    }),
  });
}
