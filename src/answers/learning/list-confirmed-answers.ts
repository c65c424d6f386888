import type { DbClient } from '../../platform/db.js';
import { confirmedAnswers } from '../decision/confirmed-answers.js';
import { knowledgeIndex } from '../knowledge/index-cache.js';

/** The workspace's confirmations as the console lists them (the agent's, when named), the latest first. */
export async function listConfirmedAnswers({ db, workspaceId, agentId }: { db: DbClient; workspaceId: number; agentId?: string | undefined }) {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { knowledgeVersion: true } });
  const index = await knowledgeIndex({ db, workspaceId, version: workspace.knowledgeVersion });
  const all = await confirmedAnswers({ db, workspaceId, version: workspace.knowledgeVersion, index });
  return all.filter((c) => agentId === undefined || c.agentId === agentId);
}
