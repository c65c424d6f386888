import { performance } from 'node:perf_hooks';
import { publicId } from '../../accounts/credentials/tokens.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { PrismaClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { findAnsweringAgent } from '../agents/find-answering-agent.js';
import { composeAnswer, type NeedsHumanReason } from '../compose-answer.js';
import { whyHuman } from '../decision/explain.js';
import { type Generator, GeneratorError } from '../generators/generator.js';
import type { AttachmentReader } from '../attachment-reader/reader-pool.js';
import { knowledgeIndex } from '../knowledge/index-cache.js';
import type { SemanticRanking } from '../retrieval/vectors/semantic-ranking.js';
import { type AttachmentInput, readAttachments } from '../read-attachments.js';
import { workspaceModel } from '../decision/decide.js';
import { confirmedAnswers, matchConfirmations } from '../decision/confirmed-answers.js';

export interface AnswerRequest {
  message: string;
  conversationRef?: string | undefined;
  agentId?: string | undefined;
  channel?: string | undefined;
  attachments?: AttachmentInput[] | undefined;
}

export interface AnswerResponse {
  conversationId: string;
  agentId: string;
  message: string;
  sources: { externalId: string; title: string; score: number }[];
  needs_human: boolean;
  confidence: 'high' | 'medium' | 'low';
  /** Why a human was needed (a turn's reason code, answerResponse's `reason`); null when none was. */
  reason: NeedsHumanReason | null;
  /** The reason in words (explain.ts). */
  why: string | null;
}

/** Articles of a turn's ranking kept with it (its explanation names a place up to this). */
const STORED_RANKING = 10;

/** Earlier turns the agent reads to understand a follow-up. */
const THREAD_TURNS = 3;

const limitReached = (limit: number) =>
  new AppError(429, 'conversation_limit_reached', `this workspace's limit of ${limit} new conversations this month is reached`);

function monthStart(now = new Date()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * One answer-API call: the agent answers the message from the workspace's knowledge, and the
 * call is stored as a turn of a new or continued conversation. Nothing is stored when it fails.
 */
export async function answerMessage({
  db,
  generator,
  workspaceId,
  request,
  attachmentReader,
  semanticRanking,
  startedAt = performance.now(),
}: {
  db: PrismaClient;
  generator: Generator;
  workspaceId: number;
  request: AnswerRequest;
  /** Reads the request's attachments (app.attachmentReader); required when it has any (the connector sends none). */
  attachmentReader?: AttachmentReader | undefined;
  /** Ranks by meaning too (app.semanticRanking); absent or null, lexically. */
  semanticRanking?: SemanticRanking | null | undefined;
  /** When the request arrived (performance.now()), for the stored latency. */
  startedAt?: number;
}): Promise<AnswerResponse> {
  const existing = request.conversationRef
    ? await db.conversation.findUnique({
        where: { workspaceId_ref: { workspaceId, ref: request.conversationRef } },
        include: { turns: { orderBy: { id: 'desc' }, take: THREAD_TURNS, select: { question: true, reply: true } } },
      })
    : null;
  // A continued conversation keeps its agent unless the call names one (or it was unpublished since).
  const agent = request.agentId || !existing
    ? await findAnsweringAgent({ db, workspaceId, agentId: request.agentId })
    : await findAnsweringAgent({ db, workspaceId, agentId: existing.agentId }).catch(() => findAnsweringAgent({ db, workspaceId }));
  const limit = agent.conversationLimit;
  // Fails fast before any work; checked again under a lock when the conversation is created.
  if (!existing && limit !== null && (await countThisMonth(db, workspaceId)) >= limit) throw limitReached(limit);

  const attachments = await readAttachments({ attachments: request.attachments ?? [], reader: attachmentReader });
  const index = await knowledgeIndex({ db, workspaceId, version: agent.knowledgeVersion });
  const semantic = await semanticRanking?.forWorkspace({ db, workspaceId, version: agent.knowledgeVersion });
  // A message staff confirmed (or one the rule takes for the same) is answered, or handed over, as they said.
  const confirmations = await confirmedAnswers({ db, workspaceId, version: agent.knowledgeVersion, index });
  // Only a conversation's first message is matched (decision/confirmed-answers.ts): a later one means what its thread means.
  const confirmed = existing?.turns.length ? [] : matchConfirmations({ confirmations, message: request.message, agentId: agent.id, index });
  let composed;
  try {
    composed = await composeAnswer({
      index,
      message: request.message,
      thread: (existing?.turns ?? []).reverse(),
      agent,
      generator,
      attachmentText: attachments.text || undefined,
      images: attachments.images,
      attachmentCount: request.attachments?.length ?? 0,
      attachmentsUnreadable: attachments.unreadable,
      conversationNeedsHuman: existing?.needsHuman ?? false,
      model: workspaceModel(agent.decisionModel),
      semantic,
      confirmed: confirmed.map((m) => ({ externalId: m.confirmation.article?.externalId ?? null, same: m.score === 1 })),
    });
  } catch (error) {
    if (error instanceof GeneratorError) throw new AppError(502, 'answer_failed', `the AI service could not answer (${error.message}); retry with backoff`);
    throw error;
  }
  const latencyMs = Math.round(performance.now() - startedAt);

  const conversationId = await db.$transaction(async (tx) => {
    let id = existing?.id;
    if (!id) {
      if (limit !== null) {
        // Serialises new conversations of a limited workspace so the limit holds under concurrency.
        await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
        if ((await countThisMonth(tx, workspaceId)) >= limit) throw limitReached(limit);
      }
      // Two first calls with one ref at once continue one conversation.
      const rows = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "Conversation" (id, "workspaceId", ref, "agentId", "needsHuman", "createdAt", "updatedAt")
        VALUES (${publicId('cnv_', 20)}, ${workspaceId}, ${request.conversationRef ?? null}, ${agent.id}, false, now(), now())
        ON CONFLICT ("workspaceId", ref) DO UPDATE SET "updatedAt" = now()
        RETURNING id`;
      id = rows[0]!.id;
    }
    await tx.conversationTurn.create({
      data: {
        conversationId: id,
        workspaceId,
        agentId: agent.id,
        channel: request.channel ?? null,
        question: request.message,
        reply: composed.message,
        sources: composed.sources as unknown as Prisma.InputJsonArray,
        confidence: composed.confidence,
        needsHuman: composed.needsHuman,
        reason: composed.reason,
        attachments: attachments.records,
        latencyMs,
        features: composed.features ? { ...composed.features } : Prisma.DbNull,
        // What the turn ranked, so that a verdict's explanation reads this ranking rather than computing another.
        ranking: composed.ranking.length ? composed.ranking.slice(0, STORED_RANKING) : Prisma.DbNull,
      },
    });
    await tx.conversation.update({
      where: { id },
      data: composed.needsHuman ? { needsHuman: true, updatedAt: new Date() } : { updatedAt: new Date() },
    });
    return id;
  });

  return {
    conversationId,
    agentId: agent.id,
    message: composed.message,
    sources: composed.sources,
    needs_human: composed.needsHuman,
    confidence: composed.confidence,
    reason: composed.reason,
    why: whyHuman(composed.reason, composed.sources),
  };
}

function countThisMonth(db: Pick<PrismaClient, 'conversation'>, workspaceId: number) {
  return db.conversation.count({ where: { workspaceId, createdAt: { gte: monthStart() } } });
}
