import type { PrismaClient } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { createTicket } from '../../tickets/create-ticket.js';
import type { Effects } from '../../platform/after-commit.js';
import type { WidgetVisitor } from '../../generated/prisma/client.js';
import { findVisitorConversation } from './visitor-conversation.js';

/**
 * Hands the visitor's conversation to a person: a ticket through the same function as
 * POST /v1/tickets (its validation, its ticket.created webhook), linked to the conversation. One
 * ticket per conversation: a second request (a double click) gets the same ticket, the first
 * one's Idempotency-Key holding concurrent ones back. A verified visitor's address is the one signed.
 */
export async function handOff({ db, visitor, input, effects }: {
  db: PrismaClient;
  visitor: WidgetVisitor;
  input: { conversationId: string; email?: string | undefined; subject?: string | undefined };
  /** After the commit: the ticket's webhook and card (platform/after-commit.ts). */
  effects: Effects;
}) {
  const found = await findVisitorConversation({ db, visitor, conversationId: input.conversationId });
  const workspaceId = found.conversation.workspaceId;
  const earlier = await db.ticket.findFirst({ where: { conversationId: input.conversationId, workspaceId }, orderBy: { id: 'asc' } });
  if (earlier) return { ticketId: earlier.id, status: earlier.status, email: earlier.requesterEmail };
  const email = visitor.email ?? input.email;
  if (!email) throw badRequest('email: required, to tell you when the team answers');
  const turns = await db.conversationTurn.findMany({ where: { conversationId: input.conversationId }, orderBy: { id: 'asc' }, take: 50, select: { question: true, reply: true } });
  const first = turns[0]?.question.trim() ?? '';
  const subject = (input.subject?.trim() || first.replace(/\s+/g, ' ').slice(0, 200).trim() || 'Help requested in the widget').slice(0, 200);
  const description = turns.map((t) => `Customer: ${t.question}\n\nAgent: ${t.reply}`).join('\n\n---\n\n').slice(0, 50_000);
  const created = await createTicket({
    db,
    workspaceId,
    input: { subject, description, requester: { email }, conversationId: input.conversationId },
    // The whole request is the conversation's hand-off: a retry with other words is the same hand-off.
    idempotencyKey: `widget-handoff:${input.conversationId}`,
    effects,
  }).catch(async (error: unknown) => {
    const ticket = await db.ticket.findFirst({ where: { conversationId: input.conversationId, workspaceId }, orderBy: { id: 'asc' } });
    if (ticket) return { ticket: { id: ticket.id, status: ticket.status, requester: { email: ticket.requesterEmail } } };
    throw error;
  });
  return { ticketId: created.ticket.id, status: created.ticket.status, email: created.ticket.requester.email };
}
