import { generateToken, hashToken } from '../../accounts/credentials/tokens.js';
import { changeBoard } from '../activity/change-board.js';
import { AppError, badRequest, conflict } from '../../platform/errors.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { type InvitationMailer, recordInvitationMail } from './record-invitation-mail.js';
import { type listMembers, withUser } from './list-members.js';
import { authorize, type BoardRole } from '../policy.js';
import { lockBoards } from '../lock-boards.js';
import { presentMember } from '../presenters.js';

/** How long an invitation (and its link) is valid. */
export const INVITATION_DAYS = 14;
const DAY_MS = 86_400_000;

export type AddMemberResult =
  | { kind: 'member'; member: Awaited<ReturnType<typeof listMembers>>[number] }
  | { kind: 'invitation'; invitation: { email: string; role: BoardRole; expiresAt: Date; token: string; /** A mail with the link was written (the server sends mail). */ mailed: boolean } };

/**
 * Adds a registered user (a member) or invites an unknown address (an invitation that becomes a
 * membership when that address registers). Admins only; at most `invitesPerDay` new addresses
 * per inviter per day (429); an existing member, or an address with a pending invitation, is a
 * 409 (an invitation is never silently changed: revoke it, then invite again). An expired
 * invitation is replaced by a new one.
 */
export async function addMember(
  ctx: BoardContext & { boardId: number; email: string; role: BoardRole; invitesPerDay: number; mailer: InvitationMailer },
): Promise<AddMemberResult> {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  const email = ctx.email.toLowerCase();
  const user = await ctx.db.user.findUnique({ where: { email } });
  if (user && user.status !== 'active') throw badRequest(`email: ${email} cannot be added (account ${user.status})`);
  let mailed = false;
  const result = await changeBoard(ctx, async (tx, record): Promise<AddMemberResult> => {
    await lockBoards(tx, [ctx.boardId]);
    if (user) {
      const existing = await tx.boardMember.findUnique({ where: { boardId_userId: { boardId: ctx.boardId, userId: user.id } } });
      if (existing) throw conflict(`email: ${email} is already a member`);
      const member = await tx.boardMember.create({ data: { boardId: ctx.boardId, userId: user.id, role: ctx.role }, include: withUser });
      await record({ boardId: ctx.boardId, type: 'member.added', data: { userId: user.id, member: presentMember(member) } });
      return { kind: 'member', member };
    }
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
    const pending = await tx.invitation.findUnique({ where: { boardId_email: { boardId: ctx.boardId, email } } });
    if (pending && pending.expiresAt > now) {
      throw conflict(
        `email: ${email} is already invited (role ${pending.role}, until ${pending.expiresAt.toISOString()}); ` +
          `revoke the invitation (DELETE /api/boards/${ctx.boardId}/invitations/${encodeURIComponent(email)}) to invite it again`,
      );
    }
    // Counted from the activity log, which outlives invitations (accepted, or their board
    // deleted); the inviter's row is locked so parallel invitations cannot both take the last place.
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${ctx.actor.userId} FOR NO KEY UPDATE`;
    const today = await tx.activity.count({
      where: { type: 'member.invited', actorUserId: ctx.actor.userId, createdAt: { gt: new Date(now.getTime() - DAY_MS) } },
    });
    if (today >= ctx.invitesPerDay) {
      throw new AppError(429, 'rate_limited', `invitations: at most ${ctx.invitesPerDay} new addresses per day`, { 'retry-after': '3600' });
    }
    // The link the admin hands over (inv_…): shown to them now, stored as a hash.
    const token = generateToken('inv_');
    const tokenHash = hashToken(token);
    // An expired invitation of the address is replaced.
    const invitation = await tx.invitation.upsert({
      where: { boardId_email: { boardId: ctx.boardId, email } },
      create: { boardId: ctx.boardId, email, role: ctx.role, invitedById: ctx.actor.userId, expiresAt, tokenHash },
      update: { role: ctx.role, invitedById: ctx.actor.userId, createdAt: now, expiresAt, tokenHash },
    });
    await record({ boardId: ctx.boardId, type: 'member.invited', data: { email, role: ctx.role } });
    // Mailed in the same transaction when the server sends mail: the invitee gets the link themselves.
    mailed = await recordInvitationMail(tx, ctx.mailer, { ...invitation, token });
    return { kind: 'invitation', invitation: { email, role: invitation.role, expiresAt: invitation.expiresAt, token, mailed } };
  });
  if (mailed) ctx.effects.committed({ kind: 'mail.queued' });
  return result;
}
