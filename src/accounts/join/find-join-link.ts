import type { PrismaClient } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { hashToken, isWellFormedToken } from '../credentials/tokens.js';

export type JoinLink =
  | { kind: 'invitation'; email: string; board: { id: number; name: string }; role: string; invitedBy: string; expiresAt: Date; invitationId: number }
  | { kind: 'account'; email: string; name: string; expiresAt: Date; userId: number; hasPassword: boolean };

const unknownLink = () => notFound('link: not valid (it was used, replaced or revoked); ask for a new one');
const expired = (at: Date, who: string) =>
  new AppError(410, 'gone', `link: expired on ${at.toISOString().slice(0, 10)}; ask ${who} for a new one`);

/**
 * What an invitation link (inv_…) or account set-up link (set_…) opens, for the page that accepts
 * it: 404 when it never existed or was used, replaced or revoked; 410 (naming who to ask) when it
 * expired.
 */
export async function findJoinLink({ db, token, now = new Date() }: { db: PrismaClient; token: string; now?: Date }): Promise<JoinLink> {
  if (isWellFormedToken(token, 'inv_')) {
    const invitation = await db.invitation.findUnique({ where: { tokenHash: hashToken(token) }, include: { board: { select: { id: true, name: true } } } });
    if (!invitation) throw unknownLink();
    const inviter = await db.user.findUnique({ where: { id: invitation.invitedById }, select: { name: true } });
    const invitedBy = inviter?.name ?? 'the board admin';
    if (invitation.expiresAt <= now) throw expired(invitation.expiresAt, invitedBy);
    return { kind: 'invitation', email: invitation.email, board: invitation.board, role: invitation.role, invitedBy, expiresAt: invitation.expiresAt, invitationId: invitation.id };
  }
  if (isWellFormedToken(token, 'set_')) {
    const link = await db.accountSetupLink.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
    if (!link || link.user.status !== 'active') throw unknownLink();
    if (link.expiresAt <= now) throw expired(link.expiresAt, 'your site administrator');
    return { kind: 'account', email: link.user.email, name: link.user.name, expiresAt: link.expiresAt, userId: link.userId, hasPassword: link.user.passwordHash !== null };
  }
  throw unknownLink();
}
