import { adminQuery, withDatabaseName } from '../test/postgres-server.js';

/** The PostgreSQL server benchmarks run against. */
export const benchServerUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/**
 * A fresh database on the benchmark server for `fn`, dropped afterwards. Without a reachable
 * server it says so and exits 0: the benchmark needs PostgreSQL, the caller cannot do without.
 */
export async function withBenchDatabase<T>(what: string, fn: (url: string) => Promise<T>): Promise<T> {
  try {
    await adminQuery(benchServerUrl, 'SELECT 1');
  } catch {
    console.log(`no PostgreSQL at ${benchServerUrl}: the ${what} benchmark needs one (set BENCH_DATABASE_URL)`);
    process.exit(0);
  }
  const name = `tb_bench_${Date.now()}`;
  await adminQuery(benchServerUrl, `CREATE DATABASE "${name}"`);
  try {
    return await fn(withDatabaseName(benchServerUrl, name));
  } finally {
    await adminQuery(benchServerUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}
