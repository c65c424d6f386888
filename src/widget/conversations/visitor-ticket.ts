import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { acknowledgeReply } from '../../tickets/replies/acknowledge-reply.js';
import { rateTicket } from '../../tickets/replies/rate-ticket.js';
import type { WidgetVisitor } from '../../generated/prisma/client.js';
import { findVisitorConversation } from './visitor-conversation.js';

/** The ticket of one of the visitor's conversations (its hand-off), or 404. */
async function visitorTicket({ db, visitor, conversationId }: { db: DbClient; visitor: WidgetVisitor; conversationId: string }) {
  const found = await findVisitorConversation({ db, visitor, conversationId });
  const ticket = await db.ticket.findFirst({ where: { conversationId, workspaceId: found.conversation.workspaceId }, orderBy: { id: 'asc' } });
  if (!ticket) throw notFound(`conversationId: conversation "${conversationId}" was not handed to a person`);
  return ticket;
}

/**
 * The visitor's open widget showed the team's reply (it came over the event stream): its mail is
 * held back (acknowledgeReply). Only a public team reply of the visitor's own ticket; else 404.
 */
export async function acknowledgeVisitorReply({ db, visitor, conversationId, commentId }: { db: DbClient; visitor: WidgetVisitor; conversationId: string; commentId: number }) {
  const ticket = await visitorTicket({ db, visitor, conversationId });
  const comment = await db.ticketComment.findFirst({ where: { id: commentId, ticketId: ticket.id, public: true, author: 'team' }, select: { id: true } });
  if (!comment) throw notFound(`commentId: no reply ${commentId} in this conversation`);
  return { mailHeldBack: await acknowledgeReply({ db, commentId }) };
}

/** "How did we do?" from the widget: the rating of the conversation's ticket, once it is solved (rateTicket). */
export async function rateVisitorTicket({ db, visitor, conversationId, input }: { db: DbClient; visitor: WidgetVisitor; conversationId: string; input: { score: number; comment?: string | undefined } }) {
  const ticket = await visitorTicket({ db, visitor, conversationId });
  return rateTicket({ db, ticket, input });
}
