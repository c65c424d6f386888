import type { DbClient } from '../../platform/db.js';
import { composeMail, PRODUCT } from '../../mail/compose.js';
import type { MailOutbox } from '../../mail/outbox.js';
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
 * written; the caller wakes `mail` after its commit.
 */
export async function recordInvitationMail(
  tx: DbClient,
  mailer: InvitationMailer | undefined,
  invitation: { id: number; boardId: number; email: string; role: string; expiresAt: Date; invitedById: number; token: string },
): Promise<boolean> {
  if (!mailer?.mail.enabled) return false;
  const [board, inviter] = await Promise.all([
    tx.board.findUniqueOrThrow({ where: { id: invitation.boardId }, select: { name: true } }),
    tx.user.findUnique({ where: { id: invitation.invitedById }, select: { name: true } }),
  ]);
  const who = inviter?.name ?? 'A board admin';
  return recordMail(tx, {
    key: `invitation:${invitation.id}:${invitation.token.slice(4, 20)}`,
    kind: 'invitation',
    to: invitation.email,
    subject: `${who} invited you to “${board.name}” on ${PRODUCT}`,
    ...composeMail({
      greeting: 'Hello,',
      paragraphs: [
        `${who} invited you (${invitation.email}) to the board “${board.name}” on ${PRODUCT}, as ${/^[aeiou]/.test(invitation.role) ? 'an' : 'a'} ${invitation.role}.`,
        `Open the link to choose your name and a password and join. It works until ${invitation.expiresAt.toISOString().slice(0, 10)}.`,
      ],
      action: { label: 'Join the board', url: mailer.linkFor(invitation.token) },
      footer: ['If you do not know who this is, ignore this mail.'],
    }),
  });
}
