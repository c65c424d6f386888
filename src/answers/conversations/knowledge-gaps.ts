import type { DbClient } from '../../platform/db.js';
import { foldPhrases } from '../retrieval/synonyms.js';
import { terms } from '../retrieval/text.js';

/** Unanswered questions read per call: the most recent ones of the range. */
const MAX_QUESTIONS = 5000;
/** Two questions belong together when their terms overlap this much (Jaccard). */
const SIMILAR = 0.3;

interface Group {
  terms: Map<string, number>;
  questions: { text: string; at: Date; conversationId: string }[];
  members: number;
}

/**
 * The questions the knowledge could not answer (no relevant article, or the model found the
 * passages did not cover them), grouped by similarity of their stemmed words, biggest group first.
 * A group is a candidate article: its top terms say what it is about.
 */
export async function knowledgeGaps({ db, workspaceId, from, to, limit }: { db: DbClient; workspaceId: number; from: Date; to: Date; limit: number }) {
  const rows = await db.conversationTurn.findMany({
    where: { workspaceId, createdAt: { gte: from, lt: to }, needsHuman: true, reason: { in: ['no_knowledge', 'not_covered'] } },
    orderBy: { id: 'desc' },
    take: MAX_QUESTIONS,
    select: { question: true, createdAt: true, conversationId: true },
  });
  const groups: Group[] = [];
  for (const row of rows) {
    const own = new Set(terms(foldPhrases(row.question)));
    if (own.size === 0) continue;
    let best: Group | null = null;
    let bestScore = 0;
    for (const g of groups) {
      // Overlap with the group's frequent terms (those shared by at least half its members, or all for small groups).
      const core = [...g.terms].filter(([, n]) => n * 2 >= g.members).map(([t]) => t);
      const shared = core.filter((t) => own.has(t)).length;
      const score = shared / (own.size + core.length - shared || 1);
      if (score > bestScore) {
        best = g;
        bestScore = score;
      }
    }
    const question = { text: row.question, at: row.createdAt, conversationId: row.conversationId };
    if (best && bestScore >= SIMILAR) {
      best.members++;
      if (best.questions.length < 5) best.questions.push(question);
      for (const t of own) best.terms.set(t, (best.terms.get(t) ?? 0) + 1);
    } else {
      groups.push({ terms: new Map([...own].map((t) => [t, 1])), questions: [question], members: 1 });
    }
  }
  groups.sort((a, b) => b.members - a.members || b.questions[0]!.at.getTime() - a.questions[0]!.at.getTime());
  return {
    unanswered: rows.length,
    groups: groups.slice(0, limit).map((g) => ({
      count: g.members,
      terms: [...g.terms].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([t]) => t),
      lastAskedAt: g.questions[0]!.at.toISOString(),
      examples: g.questions.map((q) => ({ question: q.text, conversationId: q.conversationId, askedAt: q.at.toISOString() })),
    })),
  };
}
