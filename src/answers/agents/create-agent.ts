import { publicId } from '../../accounts/credentials/tokens.js';
import type { PrismaClient } from '../../platform/db.js';

export const DEFAULT_FALLBACK_MESSAGE = "I'm sorry, I don't know the answer to that. A person from our team can help you with it.";

export interface AgentInput {
  name: string;
  published?: boolean | undefined;
  isDefault?: boolean | undefined;
  fallbackMessage?: string | undefined;
  referralText?: string | undefined;
  attachmentFallback?: 'answer' | 'needs_human' | undefined;
  synonyms?: string[][] | undefined;
  handoffTopics?: string[] | undefined;
}

/**
 * A new agent of the workspace (published unless told otherwise). It becomes the default when
 * asked, or when the workspace has no default yet; at most one agent is the default.
 */
export async function createAgent({ db, workspaceId, input }: { db: PrismaClient; workspaceId: number; input: AgentInput }) {
  return db.$transaction(async (tx) => {
    // Serialises default changes per workspace.
    await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
    const hasDefault = (await tx.agent.count({ where: { workspaceId, isDefault: true } })) > 0;
    const isDefault = input.isDefault ?? !hasDefault;
    if (isDefault && hasDefault) await tx.agent.updateMany({ where: { workspaceId, isDefault: true }, data: { isDefault: false } });
    return tx.agent.create({
      data: {
        id: publicId('agt_'),
        workspaceId,
        name: input.name,
        published: input.published ?? true,
        isDefault,
        fallbackMessage: input.fallbackMessage ?? DEFAULT_FALLBACK_MESSAGE,
        referralText: input.referralText ?? '',
        attachmentFallback: input.attachmentFallback ?? 'answer',
        synonyms: input.synonyms ?? [],
        handoffTopics: input.handoffTopics ?? [],
      },
    });
  });
}
