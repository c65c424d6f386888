import type { DbClient } from '../../platform/db.js';
import { POINTING_AT_ATTACHMENT, weighSentences } from '../retrieval/retrieve.js';
import { foldPhrases } from '../retrieval/synonyms.js';
import { contentWords, stemWord } from '../retrieval/text.js';

/** Unanswered questions read per call: the most recent ones of the range. */
const MAX_QUESTIONS = 5000;
/** Two questions belong together when their terms overlap this much (Jaccard). */
const SIMILAR = 0.3;

/**
 * What a question is about: the stems of the words of its asking sentences (greetings and the story
 * around them left out, as retrieval weighs them), without words pointing at an attachment; with the
 * whole word each stem was written as, for display.
 */
function meaningfulTerms(question: string, surface: Map<string, Map<string, number>>): Set<string> {
  const out = new Set<string>();
  for (const { text, weight } of weighSentences(question, 0)) {
    if (weight === 0) continue;
    for (const word of contentWords(foldPhrases(text))) {
      if (POINTING_AT_ATTACHMENT.has(word)) continue;
      const stem = stemWord(word);
      out.add(stem);
      const forms = surface.get(stem) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      surface.set(stem, forms);
    }
  }
  return out;
}

interface Group {
  terms: Map<string, number>;
  questions: { text: string; at: Date; conversationId: string }[];
  members: number;
}

/**
 * The questions the knowledge could not answer (no relevant article, or the model found the
 * passages did not cover them), grouped by similarity of their meaningful words (stemmed, each weighing
 * by its rarity among the questions, so that boilerplate they all share weighs nothing), biggest group first. A group is a candidate
 * article: its top terms, shown as whole words, say what it is about.
 */
export async function knowledgeGaps({ db, workspaceId, from, to, limit }: { db: DbClient; workspaceId: number; from: Date; to: Date; limit: number }) {
  const rows = await db.conversationTurn.findMany({
    where: { workspaceId, createdAt: { gte: from, lt: to }, needsHuman: true, reason: { in: ['no_knowledge', 'unclear_match', 'not_covered'] } },
    orderBy: { id: 'desc' },
    take: MAX_QUESTIONS,
    select: { question: true, createdAt: true, conversationId: true },
  });
  const surface = new Map<string, Map<string, number>>();
  const perRow = rows.map((row) => meaningfulTerms(row.question, surface));
  const questionsWith = new Map<string, number>();
  for (const own of perRow) for (const t of own) questionsWith.set(t, (questionsWith.get(t) ?? 0) + 1);
  // Words weigh by how rare they are among these questions: the boilerplate every question carries (a form's
  // "ticket from the shop", "see attached") weighs nothing, so it neither joins unrelated questions nor names a group.
  const weight = (t: string) => Math.log((rows.length + 1) / (questionsWith.get(t) ?? 1));
  const mass = (ts: Iterable<string>) => [...ts].reduce((n, t) => n + weight(t), 0);
  // A stem is shown as the word most often written for it ("offline", not "offlin").
  const word = (stem: string) => [...(surface.get(stem) ?? new Map([[stem, 1]]))].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  // A group is named by its words that are mostly its own (most of the questions with them are in it), weightiest first.
  const namedBy = (g: Group) => {
    const ranked = [...g.terms].sort((a, b) => b[1] * weight(b[0]) - a[1] * weight(a[0]));
    const own = ranked.filter(([t, n]) => n * 2 > questionsWith.get(t)!);
    return own.length ? own : ranked;
  };
  const groups: Group[] = [];
  for (const [i, row] of rows.entries()) {
    const own = perRow[i]!;
    if (own.size === 0) continue;
    let best: Group | null = null;
    let bestScore = 0;
    for (const g of groups) {
      // Overlap with the group's frequent terms (those shared by at least half its members, or all for small groups).
      const core = [...g.terms].filter(([, n]) => n * 2 >= g.members).map(([t]) => t);
      // Jaccard overlap, each word counting by its weight.
      const shared = mass(core.filter((t) => own.has(t)));
      const score = shared / (mass(own) + mass(core) - shared || 1);
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
      terms: namedBy(g).slice(0, 5).map(([t]) => word(t)),
      lastAskedAt: g.questions[0]!.at.toISOString(),
      examples: g.questions.map((q) => ({ question: q.text, conversationId: q.conversationId, askedAt: q.at.toISOString() })),
    })),
  };
}
