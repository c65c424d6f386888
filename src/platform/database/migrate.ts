import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, SqlSession } from '../db.js';
import { type MigrationFile, readMigrations } from './migration-files.js';

// Where they were first written: importers of migrate.ts keep finding them here.
export { MIGRATIONS_DIR, type MigrationFile, readMigrations } from './migration-files.js';

/**
 * Where SQL source lives: every `sql/*.sql` file below src/, beside the TypeScript that calls it.
 * These hold functions and triggers (CREATE OR REPLACE …), not tables: a table is a migration; a
 * function is source, applied on every start, so a rule has one text that git diffs and review reads.
 * A source's triggers are dropped before pending migrations and made again after them.
 */
export const SQL_SOURCES_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The key `prisma migrate` locks with, so this runner and Prisma's CLI never run at once. */
const PRISMA_ADVISORY_LOCK = 72707369;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/** The SQL source files below `root` (in folders named `sql`), in path order. */
export async function readSqlSources(root = SQL_SOURCES_DIR): Promise<{ name: string; sql: string }[]> {
  const files = (await readdir(root, { recursive: true }))
    .filter((name) => name.endsWith('.sql') && path.basename(path.dirname(name)) === 'sql')
    .sort();
  return Promise.all(files.map(async (name) => ({ name, sql: await readFile(path.join(root, name), 'utf8') })));
}

/**
 * Applies pending migrations, each in its own transaction, recording them in Prisma's
 * `_prisma_migrations` table so `prisma migrate deploy` agrees on what ran. Refuses to continue
 * past a migration Prisma left failed, an applied migration edited since, or a database that has
 * migrations this code does not know. Then applies the SQL sources (readSqlSources), all in one
 * transaction, under the same lock: what runs is always the code's own version of each function.
 */
export async function migrate(
  db: Database,
  options: { dir?: string; sources?: string; log?: (msg: string) => void } = {},
): Promise<MigrateResult> {
  const files = await readMigrations(options.dir);
  const sources = await readSqlSources(options.sources);
  return db.withSession(async (session) => {
    const lockable = db.kind === 'postgres';
    if (lockable) await session.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    try {
      await ensureTable(session);
      const rows = await session.query<MigrationRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
      );
      const done = checkHistory(files, rows);
      const pending = files.filter((f) => !done.has(f.name));
      // A trigger a source made (below, on the last start) names columns: a migration must be free to
      // alter or drop them, and a data migration should not fire it row by row. The sources make it again.
      if (pending.length) await dropSourceTriggers(session);
      for (const file of pending) {
        options.log?.(`applying migration ${file.name}`);
        await applyOne(session, file);
      }
      await applySources(session, sources);
      return { applied: pending.map((f) => f.name), alreadyApplied: done.size };
    } finally {
      if (lockable) await session.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
    }
  });
}

function checkHistory(files: MigrationFile[], rows: MigrationRow[]): Set<string> {
  const byName = new Map(files.map((f) => [f.name, f]));
  const done = new Set<string>();
  const live = rows.filter((row) => !row.rolled_back_at);
  // A migration left half-done blocks everything else: say so first.
  const failed = live.find((row) => !row.finished_at);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed earlier and was left unfinished; repair the database, ` +
        `then mark it with \`prisma migrate resolve --rolled-back ${failed.migration_name}\``,
    );
  }
  for (const row of live) {
    const file = byName.get(row.migration_name);
    if (!file) {
      throw new MigrationError(
        `the database has migration ${row.migration_name}, which is not in prisma/migrations: ` +
          'this code is older than the database',
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.migration_name} was edited after it was applied (checksum differs); ` +
          'restore it and put the change in a new migration',
      );
    }
    done.add(row.migration_name);
  }
  return done;
}

async function applyOne(session: SqlSession, file: MigrationFile): Promise<void> {
  await session.exec('BEGIN');
  try {
    await session.exec(file.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
       VALUES ($1, $2, now(), $3, 1, now())`,
      [randomUUID(), file.checksum, file.name],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => {});
    throw new MigrationError(`migration ${file.name} failed and was rolled back: ${(error as Error).message}`);
  }
}

/**
 * Applies the SQL sources in one transaction. Function bodies are checked when first called, not
 * here, so one file may call a function of a file applied after it.
 */
async function applySources(session: SqlSession, sources: { name: string; sql: string }[]): Promise<void> {
  if (sources.length === 0) return;
  await session.exec('BEGIN');
  let current = '';
  try {
    await session.exec('SET LOCAL check_function_bodies = off');
    for (const source of sources) {
      current = source.name;
      await session.exec(source.sql);
      // Marked as the sources' own, so the next start with pending migrations can drop it first.
      for (const trigger of triggersIn(source.sql)) {
        await session.exec(`COMMENT ON TRIGGER ${trigger.name} ON ${trigger.table} IS '${SOURCE_TRIGGER} ${source.name.replace(/'/g, "''")}'`);
      }
    }
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => {});
    throw new MigrationError(`SQL source ${current} failed and nothing of the sources was applied: ${(error as Error).message}`);
  }
}

/** How a trigger made by a SQL source is marked (its comment begins with this). */
const SOURCE_TRIGGER = 'sql source:';

/** The triggers a source creates: `CREATE [OR REPLACE] TRIGGER name … ON table`. */
export function triggersIn(sql: string): { name: string; table: string }[] {
  const ident = String.raw`(?:"[^"]+"|[A-Za-z_][\w$]*)`;
  const pattern = new RegExp(String.raw`CREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?TRIGGER\s+(${ident})[\s\S]*?\sON\s+(${ident}(?:\.${ident})?)`, 'gi');
  return [...sql.replace(/--[^\n]*/g, '').matchAll(pattern)].map((m) => ({ name: m[1]!, table: m[2]! }));
}

/** Drops every trigger a SQL source made (marked by applySources), whatever source made it. */
async function dropSourceTriggers(session: SqlSession): Promise<void> {
  const rows = await session.query<{ name: string; table: string; schema: string }>(
    `SELECT t.tgname AS name, c.relname AS "table", n.nspname AS schema
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_description d ON d.objoid = t.oid AND d.classoid = 'pg_trigger'::regclass
      WHERE d.description LIKE $1`,
    [`${SOURCE_TRIGGER}%`],
  );
  const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
  for (const row of rows) await session.exec(`DROP TRIGGER IF EXISTS ${quote(row.name)} ON ${quote(row.schema)}.${quote(row.table)}`);
}

/** Prisma's own definition of its bookkeeping table. */
async function ensureTable(session: SqlSession): Promise<void> {
  await session.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`);
}
