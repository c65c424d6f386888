import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import type { WidgetVisitor } from '../../generated/prisma/client.js';

/**
 * Which widget conversations a visitor may read: those it started, and a verified user's from any
 * device. Used in every query, so another visitor's conversation is simply not found.
 */
export function visitorConversationWhere(visitor: WidgetVisitor) {
  return {
    widgetId: visitor.widgetId,
    OR: [{ visitorId: visitor.id }, ...(visitor.userId !== null ? [{ userId: visitor.userId }] : [])],
  };
}

/** The visitor's conversation, or 404 (also for another visitor's). */
export async function findVisitorConversation({ db, visitor, conversationId }: { db: DbClient; visitor: WidgetVisitor; conversationId: string }) {
  const found = await db.widgetConversation.findFirst({
    where: { conversationId, ...visitorConversationWhere(visitor) },
    include: { conversation: { select: { id: true, ref: true, workspaceId: true } } },
  });
  if (!found) throw notFound(`conversationId: no conversation "${conversationId}" of this visitor`);
  return found;
}

/** Titles and URLs of cited articles, by externalId. */
export async function articleLinks(db: DbClient, workspaceId: number, sources: { externalId: string; title: string }[]) {
  const ids = [...new Set(sources.map((s) => s.externalId))];
  const rows = ids.length ? await db.article.findMany({ where: { workspaceId, externalId: { in: ids } }, select: { externalId: true, url: true } }) : [];
  const urls = new Map(rows.map((r) => [r.externalId, r.url]));
  return sources.map((s) => ({ title: s.title, url: urls.get(s.externalId) ?? null }));
}
