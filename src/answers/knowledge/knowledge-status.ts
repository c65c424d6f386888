import type { DbClient } from '../../platform/db.js';
import { countArticleVectors } from '../retrieval/vectors/article-vectors.js';
import type { BuildFailure, SemanticRanking } from '../retrieval/vectors/semantic-ranking.js';

/**
 * A build under way that has stored no article for this long is reported stalled. An article takes about a second on
 * a busy machine (1,000 in 15 minutes), and one request to an embeddings server fails after EMBEDDINGS_TIMEOUT_MS (10 s
 * by default): a minute without one is not a slow article.
 */
export const STALLED_AFTER_MS = 60_000;

export interface KnowledgeStatus {
  articles: number;
  /** Articles whose vectors are current (computed from the article as it is, by the model in use). */
  withVectors: number;
  /** Ranking by meaning is on in this server (SEMANTIC_RANKING). */
  semanticRanking: boolean;
  /** Every article has vectors: messages are ranked by their words and their meaning. */
  rankingByMeaning: boolean;
  /** When the build under way started (null: none under way in the process asked). */
  buildingSince: Date | null;
  /** About how long the build has left, from its pace so far (null: not building, or too early to say). */
  secondsLeft: number | null;
  /** Why the last build in the process asked failed, while no build since has stored an article (null: none failed). */
  failure: BuildFailure | null;
  /** The build under way has stored no article since then, over STALLED_AFTER_MS ago (null: not building, or moving). */
  stalledSince: Date | null;
}

/**
 * How far the workspace's knowledge is embedded for ranking by meaning; starts the build when some article lacks
 * vectors (a build otherwise starts with the next answer), so that an import followed in the console is embedded.
 */
export async function knowledgeStatus({ db, workspaceId, semanticRanking }: { db: DbClient; workspaceId: number; semanticRanking: SemanticRanking | null }): Promise<KnowledgeStatus> {
  const articles = await db.article.count({ where: { workspaceId } });
  if (!semanticRanking) return { articles, withVectors: 0, semanticRanking: false, rankingByMeaning: false, buildingSince: null, secondsLeft: null, failure: null, stalledSince: null };
  const withVectors = await countArticleVectors({ db, workspaceId, model: semanticRanking.model });
  if (withVectors < articles) void semanticRanking.build({ db, workspaceId });
  const progress = withVectors < articles ? semanticRanking.buildProgress(workspaceId) : null;
  let secondsLeft: number | null = null;
  if (progress && progress.done > 0) {
    const perArticle = (Date.now() - progress.since.getTime()) / 1000 / progress.done;
    secondsLeft = Math.ceil(perArticle * (articles - withVectors));
  }
  const failure = withVectors < articles ? semanticRanking.buildFailure(workspaceId) : null;
  const stalledSince = progress && Date.now() - progress.lastAt.getTime() > STALLED_AFTER_MS ? progress.lastAt : null;
  return { articles, withVectors, semanticRanking: true, rankingByMeaning: articles > 0 && withVectors >= articles, buildingSince: progress?.since ?? null, secondsLeft, failure, stalledSince };
}
