import type { DbClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { hashReplyToken } from './reply-mail.js';

/** One wording for a link that opens nothing, whatever the reason (unknown, expired, its ticket deleted): the page shows it. */
export const replyLinkNotValid = () =>
  new AppError(404, 'link_not_valid', 'This link does not open a conversation: it may have expired (links work for 30 days) or been mistyped. Your next reply from the team brings a new one.');

/** The ticket a reply link opens (the token is the only proof: no account), or 404 link_not_valid. */
export async function openReplyLink({ db, token }: { db: DbClient; token: string }) {
  if (!/^trl_[0-9A-Za-z_-]{20,60}$/.test(token)) throw replyLinkNotValid();
  const link = await db.ticketReplyLink.findUnique({ where: { tokenHash: hashReplyToken(token) }, include: { ticket: true } });
  if (!link || link.expiresAt.getTime() <= Date.now()) throw replyLinkNotValid();
  return link.ticket;
}
