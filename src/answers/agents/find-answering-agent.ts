import type { DbClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';

const agentNotFound = (message: string) => new AppError(404, 'agent_not_found', message);

/**
 * The published agent that answers a call, with the workspace's knowledge version and limit in
 * the same query: the named one, else the default, else the oldest published one. 404
 * agent_not_found when the workspace has none, or the named one is not a published agent of it.
 */
export async function findAnsweringAgent({ db, workspaceId, agentId }: { db: DbClient; workspaceId: number; agentId?: string | undefined }) {
  const rows = await db.$queryRaw<
    {
      id: string;
      name: string;
      fallbackMessage: string;
      referralText: string;
      attachmentFallback: 'answer' | 'needs_human';
      synonyms: unknown;
      handoffTopics: string[];
      knowledgeVersion: number;
      conversationLimit: number | null;
      /** The workspace's decision refitted on its staff's feedback (see workspaceModel), or null. */
      decisionModel: unknown;
    }[]
  >`
    SELECT a.id, a.name, a."fallbackMessage", a."referralText", a."attachmentFallback"::text AS "attachmentFallback", a.synonyms, a."handoffTopics",
           w."knowledgeVersion", w."conversationLimit", w."decisionModel"
    FROM "Agent" a JOIN "Workspace" w ON w.id = a."workspaceId"
    WHERE a."workspaceId" = ${workspaceId} AND a.published
      AND (${agentId ?? null}::text IS NULL OR a.id = ${agentId ?? null}::text)
    ORDER BY a."isDefault" DESC, a."createdAt", a.id
    LIMIT 1`;
  const agent = rows[0];
  if (!agent) {
    throw agentNotFound(agentId ? `agentId: no published agent "${agentId}" in this workspace` : 'this workspace has no published agent');
  }
  return { ...agent, synonyms: synonymGroups(agent.synonyms) };
}

/** An agent's stored synonym groups (JSON), keeping only well-formed ones. */
export function synonymGroups(json: unknown): string[][] {
  if (!Array.isArray(json)) return [];
  return json.filter((g): g is string[] => Array.isArray(g) && g.every((w) => typeof w === 'string'));
}
