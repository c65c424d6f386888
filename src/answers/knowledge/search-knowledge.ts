import { knowledgeIndex } from './index-cache.js';
import { bestPassages, DEFAULT_QUERY, retrieve } from '../retrieval/retrieve.js';
import type { DbClient } from '../../platform/db.js';
import { workspaceForUser } from '../../workspaces/access.js';

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The workspace's articles that best match a query, ranked by the answer agent's own retrieval
 * (BM25F with stemming, typo correction and synonyms), each with its best passage. Members only
 * (404 for a workspace the user is not a member of). `score` is relative to the best hit (1).
 */
export async function searchKnowledge({ db, userId, workspaceId, q, limit }: { db: DbClient; userId: number; workspaceId: number; q: string; limit: number }) {
  const workspace = await workspaceForUser({ db, userId, workspaceId, action: 'read' });
  const index = await knowledgeIndex({ db, workspaceId: workspace.id, version: workspace.knowledgeVersion });
  const { query, candidates } = retrieve(index, { message: q }, DEFAULT_QUERY, limit);
  const best = candidates[0]?.score ?? 0;
  return {
    articles: candidates.map(({ article, score }) => ({
      externalId: article.doc.externalId,
      title: article.doc.title,
      url: article.doc.url,
      score: best > 0 ? round(score / best) : 0,
      excerpt: bestPassages(article, query.terms, index, 1)[0]?.text ?? '',
    })),
  };
}
