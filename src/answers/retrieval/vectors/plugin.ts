import fp from 'fastify-plugin';
import type { Config } from '../../../config.js';
import { BuiltinVectorSource } from './builtin-source.js';
import { OpenAiVectorSource } from './openai-source.js';
import { SemanticRanking } from './semantic-ranking.js';
import type { VectorSource } from './vector-source.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Semantic ranking of the answer agent; null when SEMANTIC_RANKING is off. */
    semanticRanking: SemanticRanking | null;
  }
}

/** EMBEDDINGS_URL set: that OpenAI-compatible endpoint; else the built-in sentence encoder. */
export function vectorSourceFromConfig(config: Config): VectorSource {
  if (!config.EMBEDDINGS_URL) return new BuiltinVectorSource({ threads: config.EMBEDDINGS_THREADS });
  return new OpenAiVectorSource({ baseUrl: config.EMBEDDINGS_URL, model: config.EMBEDDINGS_MODEL, apiKey: config.EMBEDDINGS_API_KEY, timeoutMs: config.EMBEDDINGS_TIMEOUT_MS });
}

/** The answer agent's semantic ranking: nothing starts until a workspace is answered; the encoder stops with the app. */
export const semanticRankingPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const ranking = config.SEMANTIC_RANKING
      ? new SemanticRanking({ source: vectorSourceFromConfig(config), queryTimeoutMs: config.SEMANTIC_QUERY_TIMEOUT_MS, cacheBytes: config.SEMANTIC_CACHE_MB * 1024 * 1024, log: app.log })
      : null;
    app.decorate('semanticRanking', ranking);
    if (ranking) app.addHook('onClose', () => ranking.close());
  },
  { name: 'semantic-ranking' },
);
