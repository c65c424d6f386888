import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';

/** A turn's verdict as the console shows it. */
const FEEDBACK = { select: { verdict: true, counts: true, why: true, updatedAt: true, article: { select: { externalId: true } }, user: { select: { name: true } } } } as const;

export interface ConversationFilter {
  workspaceId: number;
  agentId?: string | undefined;
  channel?: string | undefined;
  needsHuman?: boolean | undefined;
  confidence?: 'high' | 'medium' | 'low' | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/**
 * A page of conversations, most recently active first, each with its last turn and every channel
 * its turns came in on (first seen first). Channel and confidence match any turn; the cursor is
 * the last conversation's id of the previous page.
 */
export async function listConversations({ db, filter, limit, cursor }: { db: DbClient; filter: ConversationFilter; limit: number; cursor?: string | undefined }) {
  const after = cursor ? await db.conversation.findFirst({ where: { id: cursor, workspaceId: filter.workspaceId }, select: { updatedAt: true, id: true } }) : null;
  if (cursor && !after) throw notFound('cursor: unknown conversation');
  const turnFilter = {
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.confidence ? { confidence: filter.confidence } : {}),
  };
  const rows = await db.conversation.findMany({
    where: {
      workspaceId: filter.workspaceId,
      ...(filter.agentId ? { agentId: filter.agentId } : {}),
      ...(filter.needsHuman !== undefined ? { needsHuman: filter.needsHuman } : {}),
      ...(filter.from || filter.to ? { updatedAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
      ...(Object.keys(turnFilter).length ? { turns: { some: turnFilter } } : {}),
      ...(after ? { OR: [{ updatedAt: { lt: after.updatedAt } }, { updatedAt: after.updatedAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    include: { turns: { orderBy: { id: 'desc' }, take: 1, include: { feedback: FEEDBACK } }, _count: { select: { turns: true } } },
  });
  const page = rows.slice(0, limit);
  const ids = page.map((c) => c.id);
  const [channels, firsts] = await Promise.all([channelsOf(db, ids), firstQuestionsOf(db, ids)]);
  return {
    conversations: page.map((c) => ({ ...c, channels: channels.get(c.id) ?? [], firstQuestion: firsts.get(c.id) ?? null })),
    nextCursor: rows.length > limit ? rows[limit - 1]!.id : null,
  };
}

/** Each conversation's first customer message (its title in the console), cut to 200 characters. */
async function firstQuestionsOf(db: DbClient, conversationIds: string[]) {
  const byConversation = new Map<string, string>();
  if (conversationIds.length === 0) return byConversation;
  const firsts = await db.conversationTurn.groupBy({ by: ['conversationId'], where: { conversationId: { in: conversationIds } }, _min: { id: true } });
  const ids = firsts.map((f) => f._min.id).filter((id): id is NonNullable<typeof id> => id !== null);
  const turns = await db.conversationTurn.findMany({ where: { id: { in: ids } }, select: { conversationId: true, question: true } });
  for (const t of turns) byConversation.set(t.conversationId, t.question.slice(0, 200));
  return byConversation;
}

/** Each conversation's distinct channels, in the order they first appeared. */
async function channelsOf(db: DbClient, conversationIds: string[]) {
  const byConversation = new Map<string, string[]>();
  if (conversationIds.length === 0) return byConversation;
  const groups = await db.conversationTurn.groupBy({
    by: ['conversationId', 'channel'],
    where: { conversationId: { in: conversationIds }, channel: { not: null } },
    _min: { id: true },
    orderBy: { _min: { id: 'asc' } },
  });
  for (const g of groups) {
    const list = byConversation.get(g.conversationId) ?? [];
    list.push(g.channel!);
    byConversation.set(g.conversationId, list);
  }
  return byConversation;
}

/** One conversation of the workspace with all its turns, oldest first; 404 otherwise. */
export async function getConversation({ db, workspaceId, conversationId }: { db: DbClient; workspaceId: number; conversationId: string }) {
  const conversation = await db.conversation.findFirst({
    where: { id: conversationId, workspaceId },
    include: { turns: { orderBy: { id: 'asc' }, include: { feedback: FEEDBACK } }, _count: { select: { turns: true } } },
  });
  if (!conversation) throw notFound('conversation: not found');
  return { ...conversation, channels: [...new Set(conversation.turns.flatMap((t) => (t.channel === null ? [] : [t.channel])))] };
}
