import type { DbClient } from '../../platform/db.js';
import { replyMailKey } from './reply-mail.js';

/**
 * An open widget showed the team's reply: its mail, not yet claimed by a mail worker, is not
 * needed (deleted, with the link it would have carried). A reply whose mail is already being sent
 * or was sent stays as it is. Whether a mail was held back. The caller checked that the reply is
 * of the visitor's own ticket.
 */
export async function acknowledgeReply({ db, commentId }: { db: DbClient; commentId: number }): Promise<boolean> {
  const { count } = await db.mailMessage.deleteMany({
    where: { key: replyMailKey(commentId), status: 'pending', attempts: 0, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
  });
  if (count > 0) await db.ticketReplyLink.deleteMany({ where: { commentId } });
  return count > 0;
}
