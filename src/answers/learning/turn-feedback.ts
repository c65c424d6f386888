import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient, PrismaClient } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { type DecisionModel, DEFAULT_MODEL, featureNames, workspaceModel } from '../decision/decide.js';
import type { Features } from '../retrieval/features.js';
import { checkedRefit, MIN_LABELS, type RefitCheck, type Sample } from './fit.js';
import { DEFAULT_QUERY, retrieve } from '../retrieval/retrieve.js';
import { knowledgeIndex } from '../knowledge/index-cache.js';
import { answerable, handedOver, NOT_DECIDED, undecided, type Verdict } from './verdict-label.js';

export type { Verdict } from './verdict-label.js';

export interface FeedbackResult {
  turnId: number;
  verdict: Verdict;
  articleExternalId: string | null;
  /** Verdicts the workspace has given that the decision learns from, and how many it needs before it does. */
  labels: number;
  labelsNeeded: number;
  /** The workspace's decision is its own (refitted on its labels), not the global one. */
  refitted: boolean;
  /** The last refit's check of the new fit against the model in use (checkedRefit); null before the first. */
  check: RefitCheck | null;
  /** Whether the decision learns from this verdict; `why` says why not. */
  counts: boolean;
  why: string | null;
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
  const turn = await db.conversationTurn.findFirst({
    where: { id: turnId, conversationId, workspaceId },
    select: { id: true, question: true, needsHuman: true, reason: true, sources: true, features: true, ranking: true },
  });
  if (!turn) throw notFound('turn: not found');
  if (verdict === 'wrong' && !articleExternalId) throw badRequest('articleId: name the article that answers the message (its externalId) when the answer was wrong');
  if (verdict !== 'wrong' && articleExternalId) throw badRequest('articleId: only a "wrong" verdict names an article');
  const cited = (turn.sources as { externalId?: string }[])[0]?.externalId;
  if (verdict === 'should_answer' && !handedOver(turn)) throw badRequest('verdict: should_answer is for a turn that was handed over; this one was answered (right or wrong)');
  if (verdict === 'should_answer' && !cited) throw badRequest('verdict: should_answer says the cited article was right, and this turn cited none (name the article with wrong)');
  const idOf = async (externalId: string) => (await db.article.findUnique({ where: { workspaceId_externalId: { workspaceId, externalId } }, select: { id: true } }))?.id ?? null;
  let articleId: number | null = null;
  if (verdict === 'wrong') {
    articleId = await idOf(articleExternalId!);
    if (articleId === null) throw badRequest(`articleId: this workspace has no article "${articleExternalId}"`);
  } else if ((verdict === 'right' && !handedOver(turn)) || verdict === 'should_answer') {
    if (cited) articleId = await idOf(cited);
  }
  let why = undecided({ ...turn, features: featuresOf(turn.features) });
  if (!why && verdict === 'wrong' && articleExternalId !== cited) {
    const ranked = rankingOf(turn.ranking);
    why = ranked ? whyNotFirstIn(ranked, articleExternalId!) : await whyNotFirst({ db, workspaceId, question: turn.question, articleId: articleId!, externalId: articleExternalId! });
  }
  const counts = why === null;
  return db.$transaction(async (tx) => {
    await lockWorkspaceFeedback(tx, workspaceId);
    const before = await tx.turnFeedback.findUnique({ where: { turnId }, select: { verdict: true, articleId: true, counts: true } });
    await tx.turnFeedback.upsert({
      where: { turnId },
      create: { turnId, workspaceId, verdict, articleId, userId, counts, why },
      update: { verdict, articleId, userId, counts, why },
    });
    const unchanged = before?.verdict === verdict && before.articleId === articleId && before.counts === counts;
    // The knowledge version moves when a phrasing or a confirmed answer (confirmed-answers.ts) came, went or changed.
    const confirmationChanged = (before?.articleId ?? null) !== articleId || (before?.verdict === 'needs_human') !== (verdict === 'needs_human');
    const refit = unchanged ? await learningStatus({ db: tx, workspaceId }) : await refitWorkspace(tx, workspaceId, confirmationChanged);
    return { turnId, verdict, articleExternalId: verdict === 'wrong' ? articleExternalId! : null, ...refit, counts, why };
  });
}

/**
 * Whether the article staff named ranks first for the turn's message with the workspace's knowledge
 * as it is now (the phrasings staff confirmed so far included): null when it does; else why the
 * verdict teaches the decision nothing. Teaching "answer turns like this" where another article ranks
 * first would make the agent answer them citing that other article.
 */
async function whyNotFirst({ db, workspaceId, question, articleId, externalId }: { db: DbClient; workspaceId: number; question: string; articleId: number; externalId: string }) {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { knowledgeVersion: true } });
  const index = await knowledgeIndex({ db, workspaceId, version: workspace.knowledgeVersion });
  const { candidates } = retrieve(index, { message: question }, DEFAULT_QUERY, 10);
  if (candidates[0]?.article.doc.id === articleId) return null;
  const rank = candidates.findIndex((c) => c.article.doc.id === articleId);
  const where = rank < 0 ? 'is not among the first 10 matches' : `ranks ${rank + 1}${rank === 1 ? 'nd' : rank === 2 ? 'rd' : 'th'}`;
  return `"${externalId}" ${where} for this message, behind "${candidates[0]?.article.doc.externalId ?? '?'}": the decision learns to answer only where the right article ranks first, so this verdict only adds the message as a phrasing of "${externalId}" (it helps rank it for messages worded like this one).`;
}

/** A turn's stored ranking (externalIds, best first), or null for a turn stored before rankings were kept. */
function rankingOf(json: Prisma.JsonValue): string[] | null {
  return Array.isArray(json) && json.length && json.every((x) => typeof x === 'string') ? (json as string[]) : null;
}

const ordinal = (rank: number) => `${rank + 1}${rank === 0 ? 'st' : rank === 1 ? 'nd' : rank === 2 ? 'rd' : 'th'}`;

/**
 * whyNotFirst from the ranking the turn itself was decided on (words and meaning blended), so the explanation
 * matches the places the turn lists: null when the article was first there.
 */
function whyNotFirstIn(ranking: string[], externalId: string): string | null {
  const rank = ranking.indexOf(externalId);
  if (rank === 0) return null;
  const where = rank < 0 ? `is not among the ${ranking.length} articles this turn ranked` : `ranks ${ordinal(rank)}`;
  return `"${externalId}" ${where} for this message, behind "${ranking[0]}": the decision learns to answer only where the right article ranks first, so this verdict only adds the message as a phrasing of "${externalId}" (it helps rank it for messages worded like this one).`;
}

/**
 * Takes a verdict back (the decision is refitted without it, its confirmed answer and phrasing go); 404 when the turn
 * has none. Without `conversationId` (a confirmed answer removed from the console's list), the turn alone names it.
 */
export async function removeFeedback({ db, workspaceId, conversationId, turnId }: { db: PrismaClient; workspaceId: number; conversationId?: string | undefined; turnId: number }) {
  await db.$transaction(async (tx) => {
    await lockWorkspaceFeedback(tx, workspaceId);
    const existing = await tx.turnFeedback.findFirst({ where: { turnId, workspaceId, ...(conversationId === undefined ? {} : { turn: { conversationId } }) }, select: { articleId: true, verdict: true } });
    if (!existing) throw notFound('feedback: this turn has none');
    await tx.turnFeedback.delete({ where: { turnId } });
    await refitWorkspace(tx, workspaceId, existing.articleId !== null || existing.verdict === 'needs_human');
  });
}

/**
 * Refits the workspace's decision on its verdicts (read with the workspace on every answer, so it
 * applies at once everywhere); bumps the knowledge version only when a phrasing or a confirmed answer came or went.
 */
async function refitWorkspace(tx: Prisma.TransactionClient, workspaceId: number, phrasingsChanged: boolean) {
  const samples = await samplesOf(tx, workspaceId);
  const stored = (await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { decisionModel: true } })).decisionModel;
  // The new fit replaces the model in use only when it is better on verdicts it was not fitted on (checkedRefit).
  const { model, check } = checkedRefit(DEFAULT_MODEL, workspaceModel(stored), samples);
  const refitted = model !== DEFAULT_MODEL;
  // Kept with the model (or alone, when the global one stays in use) for the console to say which and why.
  const kept = refitted ? { bias: model.bias, weights: model.weights, ...(check ? { check } : {}) } : check ? { check } : null;
  await tx.workspace.update({
    where: { id: workspaceId },
    data: {
      decisionModel: kept ? (kept as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      ...(phrasingsChanged ? { knowledgeVersion: { increment: 1 } } : {}),
    },
  });
  return { labels: samples.length, labelsNeeded: MIN_LABELS, refitted, check };
}

/** The last refit's check, as stored with the workspace's decision; null before there was one. */
function checkOf(stored: Prisma.JsonValue | undefined): RefitCheck | null {
  const check = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as { check?: RefitCheck }).check : undefined;
  return check && typeof check === 'object' && (check.kept === 'fitted' || check.kept === 'previous') ? check : null;
}

/** How far the workspace's agent has learnt from its staff's verdicts. */
export async function learningStatus({ db, workspaceId }: { db: DbClient; workspaceId: number }) {
  const [samples, workspace] = await Promise.all([samplesOf(db, workspaceId), db.workspace.findUnique({ where: { id: workspaceId }, select: { decisionModel: true } })]);
  return { labels: samples.length, labelsNeeded: MIN_LABELS, refitted: workspaceModel(workspace?.decisionModel) !== DEFAULT_MODEL, check: checkOf(workspace?.decisionModel) };
}

/** The decision's samples: each verdict on a turn the decision made, with the features it was made on (the latest MAX_SAMPLES). */
async function samplesOf(db: DbClient, workspaceId: number): Promise<Sample[]> {
  const rows = await db.turnFeedback.findMany({
    where: { workspaceId, counts: true, turn: { features: { not: Prisma.DbNull } } },
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
