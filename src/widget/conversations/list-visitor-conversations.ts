import type { DbClient } from '../../platform/db.js';
import type { WidgetVisitor } from '../../generated/prisma/client.js';
import { articleLinks, findVisitorConversation, visitorConversationWhere } from './visitor-conversation.js';

/** The visitor's conversations, newest first (ids and when they last changed). */
export async function listVisitorConversations({ db, visitor }: { db: DbClient; visitor: WidgetVisitor }) {
  const rows = await db.widgetConversation.findMany({
    where: visitorConversationWhere(visitor),
    include: { conversation: { select: { updatedAt: true } } },
    orderBy: { createdAt: 'desc' },
    take: 50,
  });
  return rows.map((r) => ({ id: r.conversationId, updatedAt: r.conversation.updatedAt.toISOString() }));
}

/** One of the visitor's conversations as the widget shows it: each turn's message and reply, oldest first. */
export async function getVisitorConversation({ db, visitor, conversationId }: { db: DbClient; visitor: WidgetVisitor; conversationId: string }) {
  const found = await findVisitorConversation({ db, visitor, conversationId });
  const workspaceId = found.conversation.workspaceId;
  const [turns, ticket] = await Promise.all([
    db.conversationTurn.findMany({ where: { conversationId }, orderBy: { id: 'asc' }, take: 200, select: { question: true, reply: true, sources: true, needsHuman: true, createdAt: true } }),
    db.ticket.findFirst({ where: { conversationId, workspaceId }, orderBy: { id: 'asc' }, select: { id: true, status: true, rating: { select: { score: true } } } }),
  ]);
  type Entry = { id?: number; from: 'visitor' | 'agent' | 'team'; body: string; sources: { title: string; url: string | null }[]; needs_human: boolean; at: string };
  const entries: Entry[] = [];
  for (const turn of turns) {
    const at = turn.createdAt.toISOString();
    entries.push({ from: 'visitor', body: turn.question, sources: [], needs_human: false, at });
    const sources = await articleLinks(db, workspaceId, (turn.sources as { externalId: string; title: string }[]) ?? []);
    entries.push({ from: 'agent', body: turn.reply, sources, needs_human: turn.needsHuman, at });
  }
  // After the hand-off: the team's public replies and the customer's answers (never internal notes).
  const comments = ticket ? await db.ticketComment.findMany({ where: { ticketId: ticket.id, public: true }, orderBy: { id: 'asc' }, take: 500 }) : [];
  for (const c of comments) {
    entries.push({ id: c.id, from: c.author === 'team' ? 'team' : 'visitor', body: c.body, sources: [], needs_human: false, at: c.createdAt.toISOString() });
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  const updatedAt = entries.at(-1)?.at ?? found.createdAt.toISOString();
  return { id: conversationId, ticketId: ticket?.id ?? null, ticketStatus: ticket?.status ?? null, rated: Boolean(ticket?.rating), entries, updatedAt };
}
