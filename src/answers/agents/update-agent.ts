import type { PrismaClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import type { AgentInput } from './create-agent.js';

/** Changes an agent of the workspace; making it the default takes the flag from the previous one. */
export async function updateAgent({
  db,
  workspaceId,
  agentId,
  changes,
}: {
  db: PrismaClient;
  workspaceId: number;
  agentId: string;
  changes: Partial<AgentInput>;
}) {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
    const agent = await tx.agent.findFirst({ where: { id: agentId, workspaceId } });
    if (!agent) throw notFound('agent: not found');
    if (changes.isDefault) {
      await tx.agent.updateMany({ where: { workspaceId, isDefault: true, NOT: { id: agentId } }, data: { isDefault: false } });
    }
    return tx.agent.update({
      where: { id: agentId },
      data: {
        name: changes.name,
        published: changes.published,
        isDefault: changes.isDefault,
        fallbackMessage: changes.fallbackMessage,
        referralText: changes.referralText,
        attachmentFallback: changes.attachmentFallback,
        synonyms: changes.synonyms,
        handoffTopics: changes.handoffTopics,
      },
    });
  });
}
