import type { RecordActivity } from '../activity/change-board.js';
import type { Tx } from '../../platform/db.js';
import { withUser } from './list-members.js';
import { presentMember } from '../presenters.js';

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
