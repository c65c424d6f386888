import type { Config } from '../../config.js';
import type { Generator } from './generator.js';
import { OfflineGenerator } from './offline-generator.js';
import { OpenAiGenerator } from './openai-generator.js';

/** LLM_BASE_URL set: that OpenAI-compatible server; else the built-in offline generator. */
export function generatorFromConfig(config: Config): Generator {
  if (!config.LLM_BASE_URL) return new OfflineGenerator();
  return new OpenAiGenerator({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL ?? 'gpt-4o-mini',
    timeoutMs: config.LLM_TIMEOUT_MS,
    retries: config.LLM_RETRIES,
    images: config.LLM_IMAGES,
    backoffMs: config.LLM_BACKOFF_MS,
  });
}
