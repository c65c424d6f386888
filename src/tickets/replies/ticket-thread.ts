import type { DbClient } from '../../platform/db.js';

/** One line of the thread as the customer sees it (never internal notes). */
export interface ThreadEntry {
  from: 'customer' | 'agent' | 'team';
  body: string;
  at: string;
}

/**
 * A ticket as its customer sees it on the reply page: the conversation with the agent that led to
 * it, then the team's public replies and the customer's answers, oldest first; never an internal note.
 */
export async function ticketThread({ db, ticket }: { db: DbClient; ticket: { id: number; conversationId: string | null } }) {
  const [turns, comments, rating] = await Promise.all([
    ticket.conversationId
      ? db.conversationTurn.findMany({ where: { conversationId: ticket.conversationId }, orderBy: { id: 'asc' }, take: 200, select: { question: true, reply: true, createdAt: true } })
      : [],
    db.ticketComment.findMany({ where: { ticketId: ticket.id, public: true }, orderBy: { id: 'asc' }, take: 500 }),
    db.ticketRating.findUnique({ where: { ticketId: ticket.id }, select: { score: true } }),
  ]);
  const entries: ThreadEntry[] = [];
  for (const t of turns) {
    entries.push({ from: 'customer', body: t.question, at: t.createdAt.toISOString() });
    entries.push({ from: 'agent', body: t.reply, at: t.createdAt.toISOString() });
  }
  for (const c of comments) entries.push({ from: c.author === 'team' ? 'team' : 'customer', body: c.body, at: c.createdAt.toISOString() });
  entries.sort((a, b) => a.at.localeCompare(b.at));
  return { entries, rated: rating !== null };
}
