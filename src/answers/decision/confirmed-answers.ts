import type { DbClient } from '../../platform/db.js';
import type { KnowledgeIndex } from '../retrieval/knowledge-index.js';
import { answerScore, HANDOFF_JACCARD, matchScore, matchTerms, storyTerms } from './confirmed-match.js';
import type { TurnVerdict as Verdict } from '../../generated/prisma/enums.js';

/**
 * Confirmed answers: a verdict that names the article answering a turn's message ("right" on an
 * answer, "should have answered", "wrong, it is X") makes the same message, or one the rule of confirmed-match.ts
 * takes for the same, answered from that article at once; "should not have answered" (needs_human) makes it handed
 * over (`reason: staff_handoff`). Per agent: a confirmation applies to the agent whose turn it was given on. Only a
 * conversation's first message is confirmed, and only a first message is matched: a later one means what its thread
 * means ("and on Windows?" after two different questions); a verdict on it still adds its phrasing and teaches the decision.
 *
 * An article deleted after confirmation drops its confirmations (the verdict keeps no article: TurnFeedback.articleId
 * is set null). An article edited after confirmation re-checks them: one stays while the article's own text (its
 * confirmed phrasings left out) still holds a word of the confirmed message; otherwise it is held (listed with why,
 * not used) until staff confirm again (a verdict given again dates it after the edit).
 */

export interface Confirmation {
  turnId: number;
  conversationId: string;
  agentId: string;
  question: string;
  terms: Set<string>;
  verdict: Verdict;
  /** The article that answers it; null for a confirmed hand-off. */
  article: { id: number; externalId: string; title: string } | null;
  by: string | null;
  at: Date;
  /** Why it is not used (its article changed since and the re-check failed); null when it is. */
  held: string | null;
}

export interface ConfirmedMatch {
  confirmation: Confirmation;
  /** The rule's score (Jaccard of the normalized terms): 1 for the same words. */
  score: number;
}

/** Confirmations read per workspace, the latest first: bounded so that a lookup stays well under a millisecond. */
const MAX_CONFIRMATIONS = 2000;

interface Entry {
  version: number;
  list: Promise<Confirmation[]>;
}
const caches = new WeakMap<object, Map<number, Entry>>();

/**
 * The workspace's confirmations as of knowledge version `version` (bumped by every verdict that adds, changes or
 * removes one, and by every article change), read once per version and kept in memory, so a lookup costs no query.
 */
export function confirmedAnswers({ db, workspaceId, version, index }: { db: DbClient; workspaceId: number; version: number; index: KnowledgeIndex }): Promise<Confirmation[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(workspaceId);
  if (cached?.version === version) return cached.list;
  const entry: Entry = { version, list: load(db, workspaceId, index) };
  cache.set(workspaceId, entry);
  entry.list.catch(() => {
    if (cache.get(workspaceId) === entry) cache.delete(workspaceId);
  });
  return entry.list;
}

async function load(db: DbClient, workspaceId: number, index: KnowledgeIndex): Promise<Confirmation[]> {
  const rows = await db.turnFeedback.findMany({
    where: { workspaceId, OR: [{ articleId: { not: null } }, { verdict: 'needs_human' }] },
    select: {
      turnId: true,
      verdict: true,
      updatedAt: true,
      turn: { select: { question: true, conversationId: true, agentId: true } },
      article: { select: { id: true, externalId: true, title: true, updatedAt: true } },
      user: { select: { name: true } },
    },
    orderBy: { updatedAt: 'desc' },
    take: MAX_CONFIRMATIONS,
  });
  // Only a conversation's first message stands alone: a later one ("and on Windows?") means what its thread means.
  const firsts = await db.conversationTurn.groupBy({ by: ['conversationId'], where: { conversationId: { in: [...new Set(rows.map((r) => r.turn.conversationId))] } }, _min: { id: true } });
  const first = new Set(firsts.map((f) => f._min.id));
  return rows.filter((r) => first.has(r.turnId)).map((r) => {
    const terms = matchTerms(r.turn.question, { index });
    return {
      turnId: r.turnId,
      conversationId: r.turn.conversationId,
      agentId: r.turn.agentId,
      question: r.turn.question,
      terms,
      verdict: r.verdict,
      article: r.article ? { id: r.article.id, externalId: r.article.externalId, title: r.article.title } : null,
      by: r.user?.name ?? null,
      at: r.updatedAt,
      held: r.article && r.article.updatedAt > r.updatedAt ? recheck(index, terms, r.article.id, r.article.externalId) : null,
    };
  });
}

/**
 * Null when the edited article's own text (title and body, its confirmed phrasings left out) still holds a word of the
 * confirmed message; else why the confirmation is held. Not "ranks as well as before": a "wrong, it is X" verdict is
 * mostly given where X did not rank first, and any edit would then drop it.
 */
function recheck(index: KnowledgeIndex, terms: ReadonlySet<string>, articleId: number, externalId: string): string | null {
  const article = index.articles.find((a) => a.doc.id === articleId);
  if (article && [...terms].some((t) => article.titleTf.has(t) || article.bodyTf.has(t))) return null;
  return `"${externalId}" was edited after this confirmation and no longer says any word of the message: confirm again to use it.`;
}

const taughtCache = new WeakMap<readonly Confirmation[], Map<number, Set<string>>>();

/**
 * The terms of each article's confirmed messages (those in use), per article id: the phrasings staff added to it. Computed
 * once per list (a list is read once per knowledge version and not changed after).
 */
function taughtTerms(confirmations: readonly Confirmation[]): Map<number, Set<string>> {
  let taught = taughtCache.get(confirmations);
  if (taught) return taught;
  taught = new Map();
  for (const c of confirmations) {
    if (!c.article || c.held) continue;
    let words = taught.get(c.article.id);
    if (!words) taught.set(c.article.id, (words = new Set()));
    for (const t of c.terms) words.add(t);
  }
  taughtCache.set(confirmations, taught);
  return taught;
}

/**
 * The agent's confirmations near the message under the rule's word part (confirmed-match.ts), nearest first, the
 * latest first on a tie: answers at ANSWER_JACCARD or more (composeAnswer uses the first whose article its ranking
 * puts first, or whose words are the message's), hand-offs at HANDOFF_JACCARD. Cost: one tokenisation of the message
 * and a Jaccard per confirmation of the agent (bench/answers-semantic.ts).
 */
export function matchConfirmations({ confirmations, message, agentId, index }: { confirmations: readonly Confirmation[]; message: string; agentId: string; index: KnowledgeIndex }): ConfirmedMatch[] {
  if (!confirmations.length) return [];
  const terms = matchTerms(message, { index });
  if (!terms.size) return [];
  const known = (t: string) => index.has(t);
  const story = storyTerms(message);
  const taught = taughtTerms(confirmations);
  const out: ConfirmedMatch[] = [];
  for (const c of confirmations) {
    if (c.agentId !== agentId || c.held) continue;
    // For an answer, a word staff confirmed for its article (in any of its confirmed messages) is the knowledge's too.
    const words = c.article && taught.get(c.article.id);
    const score = c.article ? answerScore(terms, story, c.terms, (t) => known(t) || words!.has(t)) : matchScore(terms, c.terms, known, HANDOFF_JACCARD, undefined, true);
    if (score > 0) out.push({ confirmation: c, score });
  }
  // Stable: among equal scores the latest (the list's order) stays first.
  return out.sort((a, b) => b.score - a.score);
}
