import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unavailable } from '../platform/errors.js';
import { checkDatabase } from './check-database.js';

const status = z.object({ status: z.literal('ok').describe('Always "ok" when answered with 200.') });

/** Liveness and readiness for orchestrators; outside every surface's auth and rate limits. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: status } } }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', { schema: { hide: true, response: { 200: status } } }, async () => {
    if (!(await checkDatabase(app.db, 2000))) throw unavailable('database unavailable');
    return { status: 'ok' as const };
  });
};
