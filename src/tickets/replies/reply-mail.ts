import { createHash, randomBytes } from 'node:crypto';
import type { DbClient } from '../../platform/db.js';
import { composeMail, freeText, PRODUCT, quoted } from '../../mail/compose.js';
import type { MailOutbox } from '../../mail/outbox.js';
import { recordMail } from '../../mail/record-mail.js';

/** How long the link in a reply mail opens the ticket's thread. */
export const REPLY_LINK_DAYS = 30;
/** The mail kind of a team's reply: uncapped in MAIL_CAPS (a reply to a customer's own ticket is bounded by that ticket). */
export const REPLY_MAIL_KIND = 'ticket-reply';

/** What a team reply needs to be mailed: whether the server mails, the origin of its link, and how long an open widget has to acknowledge it. */
export interface ReplyMail {
  outbox: MailOutbox;
  /** publicOrigin(): never the request's Host (a link a stranger can point elsewhere hands over its token). */
  linkOrigin: () => string;
  /** REPLY_MAIL_DELAY_MS. */
  delayMs: number;
}

export const replyMailKey = (commentId: number) => `${REPLY_MAIL_KIND}:${commentId}`;
export const hashReplyToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The reply as mail quotes it: each line as freeText makes it (no link but ours), prefixed "> ". */
function quote(body: string): string {
  const lines = body.split(/\r?\n/).map((l) => freeText(l)).slice(0, 60);
  const text = lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  const cut = text.length > 4000 ? `${text.slice(0, 3999)}…` : text;
  return cut.split('\n').map((l) => `> ${l}`.trimEnd()).join('\n');
}

/**
 * Records the mail of a team's public reply, in the reply's transaction: due `delayMs` after it
 * (the outbox's own `nextAttemptAt`, so a restart loses nothing and any process sends it), unless
 * an open widget acknowledges the reply first (acknowledgeReply deletes it). Its link (`/reply/trl_…`,
 * a random token stored as its SHA-256, REPLY_LINK_DAYS days) opens the thread without an account.
 */
export async function recordReplyMail(tx: DbClient, { mail, comment, ticket, workspaceName }: {
  mail: ReplyMail;
  comment: { id: number; body: string };
  ticket: { id: number; subject: string; requesterEmail: string };
  workspaceName: string;
}): Promise<boolean> {
  if (!mail.outbox.enabled) return false;
  const token = `trl_${randomBytes(24).toString('base64url')}`;
  await tx.ticketReplyLink.create({
    data: { tokenHash: hashReplyToken(token), ticketId: ticket.id, commentId: comment.id, expiresAt: new Date(Date.now() + REPLY_LINK_DAYS * 86_400_000) },
  });
  const url = `${mail.linkOrigin()}/reply/${token}`;
  const subject = freeText(ticket.subject).slice(0, 150) || 'your request';
  const recorded = await recordMail(tx, {
    key: replyMailKey(comment.id),
    kind: REPLY_MAIL_KIND,
    to: ticket.requesterEmail,
    subject: `Re: ${subject} [#${ticket.id}]`,
    ...composeMail({
      greeting: 'Hello,',
      paragraphs: [`The ${quoted(workspaceName)} team answered your request #${ticket.id}, ${quoted(ticket.subject, 120)}:`, quote(comment.body)],
      action: { label: `Answer or read the whole conversation (no account needed; the link works for ${REPLY_LINK_DAYS} days)`, url },
      footer: [`You get this mail because you asked this team for help. Links in the quoted reply are shown on the conversation page. — sent by ${PRODUCT}`],
    }),
    at: new Date(Date.now() + mail.delayMs),
  });
  return recorded;
}
