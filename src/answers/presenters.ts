import type { Confirmation } from './decision/confirmed-answers.js';
import type { KnowledgeStatus } from './knowledge/knowledge-status.js';
import { whyHuman } from './decision/explain.js';
import type { z } from 'zod';
import { synonymGroups } from './agents/find-answering-agent.js';
import type * as v from './web-schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentAgent(a: {
  id: string;
  name: string;
  published: boolean;
  isDefault: boolean;
  fallbackMessage: string;
  referralText: string;
  attachmentFallback: 'answer' | 'needs_human';
  synonyms: unknown;
  handoffTopics: string[];
  createdAt: Date;
  updatedAt: Date;
}): z.infer<typeof v.agent> {
  return {
    id: a.id,
    name: a.name,
    published: a.published,
    default: a.isDefault,
    fallbackMessage: a.fallbackMessage,
    referralText: a.referralText,
    attachmentFallback: a.attachmentFallback,
    synonyms: synonymGroups(a.synonyms),
    handoffTopics: a.handoffTopics,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

export function presentAnswerKey(k: { id: number; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): z.infer<typeof v.answerKey> {
  return { id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt.toISOString(), lastUsedAt: iso(k.lastUsedAt), revokedAt: iso(k.revokedAt) };
}

export function presentKnowledgeStatus(s: KnowledgeStatus): z.infer<typeof v.knowledgeStatus> {
  const { failure } = s;
  return {
    articles: s.articles,
    withVectors: s.withVectors,
    semanticRanking: s.semanticRanking,
    rankingByMeaning: s.rankingByMeaning,
    buildingSince: iso(s.buildingSince),
    secondsLeft: s.secondsLeft,
    failure: failure && { at: failure.at.toISOString(), kind: failure.kind, reason: failure.reason, retryAt: failure.retryAt.toISOString() },
    stalledSince: iso(s.stalledSince),
  };
}

export function presentArticle(a: { externalId: string; title: string; body: string; url: string | null; createdAt: Date; updatedAt: Date }): z.infer<typeof v.article> {
  return { externalId: a.externalId, title: a.title, body: a.body, url: a.url, createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString() };
}

interface TurnRow {
  id: number;
  agentId: string;
  channel: string | null;
  question: string;
  reply: string;
  sources: unknown;
  confidence: 'high' | 'medium' | 'low';
  needsHuman: boolean;
  reason: string | null;
  attachments: unknown;
  latencyMs: number;
  createdAt: Date;
  feedback?: { verdict: 'right' | 'wrong' | 'needs_human' | 'should_answer'; counts: boolean; why: string | null; article: { externalId: string } | null; user: { name: string } | null; updatedAt: Date } | null;
}

export function presentTurn(t: TurnRow): z.infer<typeof v.turn> {
  return {
    id: t.id,
    agentId: t.agentId,
    channel: t.channel,
    question: t.question,
    reply: t.reply,
    sources: t.sources as z.infer<typeof v.turn>['sources'],
    confidence: t.confidence,
    needsHuman: t.needsHuman,
    reason: t.reason,
    why: whyHuman(t.reason, t.sources as z.infer<typeof v.turn>['sources']),
    attachments: t.attachments as z.infer<typeof v.turn>['attachments'],
    latencyMs: t.latencyMs,
    feedback: t.feedback
      ? {
          verdict: t.feedback.verdict,
          articleId: t.feedback.verdict === 'wrong' ? (t.feedback.article?.externalId ?? null) : null,
          counts: t.feedback.counts,
          why: t.feedback.why,
          by: t.feedback.user?.name ?? null,
          updatedAt: t.feedback.updatedAt.toISOString(),
        }
      : null,
    createdAt: t.createdAt.toISOString(),
  };
}

interface ConversationRow {
  id: string;
  ref: string | null;
  agentId: string;
  needsHuman: boolean;
  createdAt: Date;
  updatedAt: Date;
  _count: { turns: number };
}

export function presentConversationSummary(c: ConversationRow & { turns: TurnRow[]; channels: string[]; firstQuestion?: string | null }): z.infer<typeof v.conversationSummary> {
  const last = c.turns[0];
  return {
    id: c.id,
    ref: c.ref,
    agentId: c.agentId,
    channels: c.channels,
    needsHuman: c.needsHuman,
    turnCount: c._count.turns,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    firstQuestion: c.firstQuestion ?? null,
    lastTurn: last ? presentTurn(last) : null,
  };
}

export function presentConversation(c: ConversationRow & { turns: TurnRow[]; channels: string[] }): z.infer<typeof v.conversation> {
  const { lastTurn: _, firstQuestion: __, ...summary } = presentConversationSummary({ ...c, turns: c.turns.slice(-1) });
  return { ...summary, turns: c.turns.map(presentTurn) };
}

/** A confirmed answer as the console lists it (decision/confirmed-answers.ts). */
export function presentConfirmedAnswer(c: Confirmation) {
  return {
    turnId: c.turnId,
    conversationId: c.conversationId,
    agentId: c.agentId,
    message: c.question,
    verdict: c.verdict,
    answers: c.article !== null,
    article: c.article && { externalId: c.article.externalId, title: c.article.title },
    by: c.by,
    at: c.at.toISOString(),
    status: c.held ? ('article_changed' as const) : ('active' as const),
    why: c.held,
  };
}
