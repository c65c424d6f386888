import { generateToken, hashToken } from '../../accounts/credentials/tokens.js';
import { changeBoard, type RecordActivity, type Tx } from '../activity/change-board.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { DbClient } from '../../platform/db.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { requireRole } from '../access.js';
import type { BoardContext } from '../context.js';
import { type InvitationMailer, recordInvitationMail } from './invitation-mail.js';
import { authorize, type BoardRole } from '../policy.js';
import { lockBoards } from '../positions.js';
import { touchCards } from '../card-change.js';
import { presentMember } from '../presenters.js';
import { withRetry } from '../retry.js';

/** How long an invitation (and its link) is valid. */
export const INVITATION_DAYS = 14;
const DAY_MS = 86_400_000;
const withUser = { user: { select: { name: true, email: true, avatarKey: true } } } as const;

/** A board's members, in the order they joined. */
export async function listMembers({ db, actor, boardId }: { db: DbClient; actor: Actor; boardId: number }) {
  await requireRole(db, actor, boardId);
  return db.boardMember.findMany({ where: { boardId }, include: withUser, orderBy: { createdAt: 'asc' } });
}

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
  ctx: BoardContext & { boardId: number; email: string; role: BoardRole; invitesPerDay: number; mailer?: InvitationMailer | undefined },
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
  if (mailed) ctx.mailer!.mail.wake();
  return result;
}

/** The board must keep an admin: refuses (409) a change that would leave it with none. */
async function keepAnAdmin(tx: Tx, boardId: number, userId: number) {
  const admins = await tx.boardMember.count({ where: { boardId, role: 'admin', userId: { not: userId } } });
  if (admins === 0) throw conflict('members: a board keeps at least one admin');
}

async function requireMember(tx: Tx, boardId: number, userId: number) {
  const member = await tx.boardMember.findUnique({ where: { boardId_userId: { boardId, userId } }, include: withUser });
  if (!member) throw notFound('member: not found');
  return member;
}

/** Changes a member's role (admins only); demoting the last admin is a 409. */
export async function updateMember(ctx: BoardContext & { boardId: number; userId: number; role: BoardRole }) {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  return changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const member = await requireMember(tx, ctx.boardId, ctx.userId);
    if (member.role === 'admin' && ctx.role !== 'admin') await keepAnAdmin(tx, ctx.boardId, ctx.userId);
    const updated = await tx.boardMember.update({
      where: { boardId_userId: { boardId: ctx.boardId, userId: ctx.userId } },
      data: { role: ctx.role },
      include: withUser,
    });
    await record({ boardId: ctx.boardId, type: 'member.updated', data: { userId: ctx.userId, member: presentMember(updated), from: { role: member.role } } });
    return updated;
  });
}

/** Removes a member (admins only); removing the last admin is a 409. */
export async function removeMember(ctx: BoardContext & { boardId: number; userId: number }) {
  const actorRole = await requireRole(ctx.db, ctx.actor, ctx.boardId);
  authorize(ctx.actor, 'members.manage', actorRole);
  await withRetry(() => changeBoard(ctx, async (tx, record) => {
    await lockBoards(tx, [ctx.boardId]);
    const member = await requireMember(tx, ctx.boardId, ctx.userId);
    if (member.role === 'admin') await keepAnAdmin(tx, ctx.boardId, ctx.userId);
    await tx.boardMember.delete({ where: { boardId_userId: { boardId: ctx.boardId, userId: ctx.userId } } });
    // Leaving a board unassigns the user's cards there.
    const assigned = await tx.cardAssignee.findMany({ where: { userId: ctx.userId, card: { boardId: ctx.boardId } }, select: { cardId: true } });
    const cardIds = assigned.map((a) => a.cardId);
    await touchCards(tx, cardIds);
    await tx.cardAssignee.deleteMany({ where: { userId: ctx.userId, cardId: { in: cardIds } } });
    await record({ boardId: ctx.boardId, type: 'member.removed', data: { userId: ctx.userId, member: presentMember(member), unassignedCardIds: cardIds } });
  }));
}

/** Turns a new user's pending, unexpired invitations into memberships (`member.added` on each board). */
export async function acceptInvitations(tx: Tx, record: RecordActivity, user: { id: number; email: string; name: string }) {
  const invitations = await tx.invitation.findMany({ where: { email: user.email, expiresAt: { gt: new Date() } } });
  for (const inv of invitations) {
    const member = await tx.boardMember.create({ data: { boardId: inv.boardId, userId: user.id, role: inv.role }, include: withUser });
    await record({ boardId: inv.boardId, type: 'member.added', data: { userId: user.id, member: presentMember(member), invitation: true } });
  }
  await tx.invitation.deleteMany({ where: { email: user.email } });
  return invitations.length;
}
