import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient, PrismaClient } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { type DecisionModel, DEFAULT_MODEL, featureNames } from '../retrieval/decide.js';
import type { Features } from '../retrieval/features.js';
import { MIN_LABELS, refitDecision, type Sample } from '../retrieval/fit.js';

export type Verdict = 'right' | 'wrong' | 'needs_human';

/** Turns handed over before the decision was asked (a request for a person, a hand-off topic, an unreadable file): their verdicts teach it nothing. */
const NOT_DECIDED = new Set(['human_requested', 'account_action', 'handoff_topic', 'attachment_unreadable']);

/**
 * Whether the turn handed the message over without answering it. A turn after an earlier hand-off
 * (`earlier_turn`) carries a real answer, so a verdict on it is a verdict on that answer.
 */
const handedOver = (turn: { needsHuman: boolean; reason: string | null }) => turn.needsHuman && turn.reason !== 'earlier_turn';

/**
 * What a verdict says about a turn: whether the knowledge answers its message (the decision's
 * label; the article that does is stored with the verdict, and the message becomes its phrasing).
 * - right: an answer was right (answerable, by its first source), or a hand-off was right (not answerable);
 * - wrong: it is answered by the article staff named;
 * - needs_human: it should have gone to a person.
 */
function answerable(verdict: Verdict, turn: { needsHuman: boolean; reason: string | null }): boolean {
  if (verdict === 'needs_human') return false;
  if (verdict === 'wrong') return true;
  return !handedOver(turn);
}

export interface FeedbackResult {
  turnId: number;
  verdict: Verdict;
  articleExternalId: string | null;
  /** Verdicts the workspace has given that the decision learns from, and how many it needs before it does. */
  labels: number;
  labelsNeeded: number;
  /** The workspace's decision is its own (refitted on its labels), not the global one. */
  refitted: boolean;
}

/** Verdicts the refit reads, the latest first: enough to learn a workspace, bounded so a refit stays cheap. */
const MAX_SAMPLES = 2000;

/** The first key of the two-key advisory lock: verdicts, as opposed to other users of advisory locks. */
const FEEDBACK_LOCK = 26_007;

/**
 * Serialises the verdicts of one workspace (two at once must not store a model missing one of them).
 * An advisory lock, taken first: locking the Workspace row after inserting a verdict (whose foreign
 * key holds a share lock on it) deadlocks two verdicts, and would hold up new conversations.
 */
const lockWorkspaceFeedback = (tx: Prisma.TransactionClient, workspaceId: number) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(${FEEDBACK_LOCK}::int, ${workspaceId}::int)`;

/**
 * A staff member's verdict on one answer of the workspace (replacing an earlier one), then the
 * workspace's decision refitted on all its verdicts; when the article it confirms changed, the
 * knowledge is marked changed, so the message is searchable as a phrasing of it from the next answer on.
 */
export async function giveFeedback({
  db,
  workspaceId,
  conversationId,
  turnId,
  userId,
  verdict,
  articleExternalId,
}: {
  db: PrismaClient;
  workspaceId: number;
  conversationId: string;
  turnId: number;
  userId: number;
  verdict: Verdict;
  /** With `wrong`: the article that answers the message (its externalId). */
  articleExternalId?: string | undefined;
}): Promise<FeedbackResult> {
  const turn = await db.conversationTurn.findFirst({ where: { id: turnId, conversationId, workspaceId }, select: { id: true, needsHuman: true, reason: true, sources: true } });
  if (!turn) throw notFound('turn: not found');
  if (verdict === 'wrong' && !articleExternalId) throw badRequest('articleId: name the article that answers the message (its externalId) when the answer was wrong');
  if (verdict !== 'wrong' && articleExternalId) throw badRequest('articleId: only a "wrong" verdict names an article');
  let articleId: number | null = null;
  if (verdict === 'wrong') {
    const article = await db.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId: articleExternalId! } }, select: { id: true } });
    if (!article) throw badRequest(`articleId: this workspace has no article "${articleExternalId}"`);
    articleId = article.id;
  } else if (verdict === 'right' && !handedOver(turn)) {
    const cited = (turn.sources as { externalId?: string }[])[0]?.externalId;
    if (cited) articleId = (await db.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId: cited } }, select: { id: true } }))?.id ?? null;
  }
  return db.$transaction(async (tx) => {
    await lockWorkspaceFeedback(tx, workspaceId);
    const before = await tx.turnFeedback.findUnique({ where: { turnId }, select: { verdict: true, articleId: true } });
    await tx.turnFeedback.upsert({
      where: { turnId },
      create: { turnId, workspaceId, verdict, articleId, userId },
      update: { verdict, articleId, userId },
    });
    const unchanged = before?.verdict === verdict && before.articleId === articleId;
    const refit = unchanged ? await learningStatus({ db: tx, workspaceId }) : await refitWorkspace(tx, workspaceId, (before?.articleId ?? null) !== articleId);
    return { turnId, verdict, articleExternalId: verdict === 'wrong' ? articleExternalId! : null, ...refit };
  });
}

/** Takes a verdict back (the decision is refitted without it); 404 when the turn has none. */
export async function removeFeedback({ db, workspaceId, conversationId, turnId }: { db: PrismaClient; workspaceId: number; conversationId: string; turnId: number }) {
  await db.$transaction(async (tx) => {
    await lockWorkspaceFeedback(tx, workspaceId);
    const existing = await tx.turnFeedback.findFirst({ where: { turnId, workspaceId, turn: { conversationId } }, select: { articleId: true } });
    if (!existing) throw notFound('feedback: this turn has none');
    await tx.turnFeedback.delete({ where: { turnId } });
    await refitWorkspace(tx, workspaceId, existing.articleId !== null);
  });
}

/**
 * Refits the workspace's decision on its verdicts (read with the workspace on every answer, so it
 * applies at once everywhere); bumps the knowledge version only when a phrasing came or went.
 */
async function refitWorkspace(tx: Prisma.TransactionClient, workspaceId: number, phrasingsChanged: boolean) {
  const samples = await samplesOf(tx, workspaceId);
  const model = refitDecision(DEFAULT_MODEL, samples);
  const refitted = model !== DEFAULT_MODEL;
  await tx.workspace.update({
    where: { id: workspaceId },
    data: {
      decisionModel: refitted ? { bias: model.bias, weights: model.weights } : Prisma.DbNull,
      ...(phrasingsChanged ? { knowledgeVersion: { increment: 1 } } : {}),
    },
  });
  return { labels: samples.length, labelsNeeded: MIN_LABELS, refitted };
}

/** How far the workspace's agent has learnt from its staff's verdicts. */
export async function learningStatus({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  const [samples, workspace] = await Promise.all([samplesOf(db, workspaceId), db.workspace.findUnique({ where: { id: workspaceId }, select: { decisionModel: true } })]);
  return { labels: samples.length, labelsNeeded: MIN_LABELS, refitted: workspaceModel(workspace?.decisionModel) !== DEFAULT_MODEL };
}

/** The decision's samples: each verdict on a turn the decision made, with the features it was made on (the latest MAX_SAMPLES). */
async function samplesOf(db: DbClient, workspaceId: number): Promise<Sample[]> {
  const rows = await db.turnFeedback.findMany({
    where: { workspaceId, turn: { features: { not: Prisma.DbNull } } },
    select: { verdict: true, turn: { select: { needsHuman: true, reason: true, features: true } } },
    orderBy: { turnId: 'desc' },
    take: MAX_SAMPLES,
  });
  return rows.flatMap(({ verdict, turn }) => {
    const x = featuresOf(turn.features);
    if (!x || NOT_DECIDED.has(turn.reason ?? '')) return [];
    return [{ x, y: answerable(verdict, turn) ? 1 : 0 }];
  });
}

/** A turn's stored features, or null when it has none or they are not all numbers. */
function featuresOf(json: Prisma.JsonValue): Features | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const out = {} as Features;
  for (const name of featureNames) {
    const value = (json as Record<string, unknown>)[name];
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    out[name] = value;
  }
  return out;
}

/** The workspace's decision: its refitted one when it has one, else the global one (thresholds always the global's). */
export function workspaceModel(stored: unknown): DecisionModel {
  if (!stored || typeof stored !== 'object') return DEFAULT_MODEL;
  const { bias, weights } = stored as { bias?: unknown; weights?: Record<string, unknown> };
  if (typeof bias !== 'number' || !weights || typeof weights !== 'object') return DEFAULT_MODEL;
  const merged = { ...DEFAULT_MODEL.weights };
  for (const name of featureNames) if (typeof weights[name] === 'number') merged[name] = weights[name];
  return { ...DEFAULT_MODEL, bias, weights: merged };
}
