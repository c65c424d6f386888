import type { DbClient } from '../../platform/db.js';
import { cutText } from '../../platform/schemas.js';
import { TEXT_LIMIT } from '../../boards/schemas.js';
import type { TicketView } from '../schemas.js';

/**
 * A ticket's card description: the requester, a link to the ticket in the support console, and
 * the conversation that led to it (the customer's messages and the agent's replies), else the
 * ticket's own description. Markdown, which the board renders as elements, never as HTML.
 */
export async function ticketCardText({ db, ticket }: { db: DbClient; ticket: TicketView }): Promise<string> {
  const head = [
    `**Requester:** ${ticket.requester.email}`,
    `**Ticket:** [#${ticket.id} in the support console](/support/${ticket.workspaceId}/tickets/${ticket.id})`,
    `**Priority:** ${ticket.priority}`,
  ].join('  \n');
  const turns = ticket.conversationId
    ? await db.conversationTurn.findMany({ where: { conversationId: ticket.conversationId }, orderBy: { id: 'asc' }, take: 50, select: { question: true, reply: true } })
    : [];
  const body = turns.length ? turns.map((t) => `**Customer:** ${t.question}\n\n**Agent:** ${t.reply}`).join('\n\n') : ticket.description;
  const text = body.trim() ? `${head}\n\n---\n\n${body}` : head;
  return cutText(text, TEXT_LIMIT, '…');
}
