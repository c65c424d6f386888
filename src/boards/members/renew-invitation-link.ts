import { generateToken, hashToken } from '../../accounts/credentials/tokens.js';
import { notFound } from '../../platform/errors.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { type InvitationMailer, recordInvitationMail } from './record-invitation-mail.js';
import { authorize } from '../policy.js';

/**
 * A new link for the board's pending invitation of `email` (board admins): links are stored as a
 * hash and shown once, so a lost one is replaced, and the old one stops working. The invitation
 * keeps its role and expiry. No pending invitation (never, accepted, expired, revoked): 404.
 * On a server that sends mail, the new link is mailed to the address too (resend), in the same
 * transaction.
 */
export async function renewInvitationLink(ctx: BoardContext & { boardId: number; email: string; mailer: InvitationMailer }) {
  const role = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', role);
  const email = ctx.email.toLowerCase();
  const token = generateToken('inv_');
  const { invitation, mailed } = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { boardId: ctx.boardId, email, expiresAt: { gt: new Date() } },
      data: { tokenHash: hashToken(token) },
    });
    if (count === 0) throw notFound('invitation: not found');
    const renewed = await tx.invitation.findUniqueOrThrow({ where: { boardId_email: { boardId: ctx.boardId, email } } });
    return { invitation: renewed, mailed: await recordInvitationMail(tx, ctx.mailer, { ...renewed, token }) };
  });
  if (mailed) ctx.effects.committed({ kind: 'mail.queued' });
  return { email, role: invitation.role, expiresAt: invitation.expiresAt, token, mailed };
}
