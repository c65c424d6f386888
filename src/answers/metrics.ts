import type { FastifyInstance, preSerializationAsyncHookHandler } from 'fastify';
import { Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from '../platform/http/metrics.js';

/** The answer API's metrics (platform/http/metrics.ts MetricsSource): answer latency by needs_human and confidence. */
export function answerMetrics(register: Registry, app: FastifyInstance) {
  const answers = new Histogram({
    name: 'taskboard_answer_duration_seconds',
    help: 'Successful POST /v1/answer calls by needs_human and confidence: time to the answer.',
    labelNames: ['needs_human', 'confidence'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [register],
  });
  const observeAnswer: preSerializationAsyncHookHandler = async (_request, reply, payload) => {
    const answer = payload as { needs_human?: unknown; confidence?: unknown } | null;
    if (reply.statusCode !== 200 || !answer || typeof answer.needs_human !== 'boolean') return payload;
    answers.observe({ needs_human: String(answer.needs_human), confidence: String(answer.confidence) }, reply.elapsedTime / 1000);
    return payload;
  };
  // Only the answer route carries this hook; every other route pays nothing.
  app.addHook('onRoute', (route) => {
    if (route.url !== '/v1/answer' || route.method !== 'POST') return;
    const existing = route.preSerialization;
    route.preSerialization = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), observeAnswer] as never;
  });
}
