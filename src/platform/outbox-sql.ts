import type { Database } from './db.js';

/** Runs one statement with positional parameters and returns its rows. */
export type OutboxSql = <T>(text: string, params: unknown[]) => Promise<T[]>;

/**
 * Outbox workers' statements (the webhook dispatcher's, the mail worker's) go to the driver itself (the pg pool, or PGlite), not through
 * Prisma: they are hand-written SQL anyway, and Prisma's per-statement cost (its query compiler,
 * parameter and row encoding) came to more than the claim itself, once per batch of deliveries.
 */
export function outboxSql(db: Database): OutboxSql {
  const { pool, pglite, prisma } = db;
  if (pool) return async (text, params) => (await pool.query(text, params)).rows;
  if (pglite) return async <T>(text: string, params: unknown[]) => (await pglite.query<T>(text, params)).rows;
  return (text, params) => prisma.$queryRawUnsafe(text, ...params);
}
