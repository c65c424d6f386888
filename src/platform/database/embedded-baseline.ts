import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR, readMigrations } from './migration-files.js';

/**
 * The embedded database's baseline: a new data directory starts from a copy of a cluster that
 * already holds every migration, instead of creating a cluster (initdb: 7-10 s of WebAssembly on
 * a busy 2-core box, four times the migrations' 2 s) and migrating it. Built at install time
 * (`npm ci` runs scripts/db-baseline.ts) into prisma/baseline/, not committed: it is 5 MB of
 * binary that every migration would change. Existing data directories never read it, and
 * PostgreSQL (DATABASE_URL) does not use it; migrations stay Prisma's.
 *
 * The manifest says which PGlite wrote it and which migrations (by checksum) it holds: a baseline
 * from another PGlite, or holding a migration that is not on disk as it is, is not used (the
 * database is created and migrated as before); migrations newer than it are applied on top.
 */
export const BASELINE_DIR = fileURLToPath(new URL('../../../prisma/baseline', import.meta.url));
export const DUMP = 'pgdata.tar.gz';
export const MANIFEST = 'manifest.json';

export interface Manifest {
  pglite: string;
  migrations: { name: string; checksum: string }[];
}

/** The installed PGlite's version: a dump is read only by the PGlite (PostgreSQL major) that wrote it. */
export function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@electric-sql/pglite');
  // The package's own package.json, above its dist/ entry.
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (require(path.join(dir, 'package.json')) as { version: string }).version;
}

/**
 * The baseline's dump when it can seed a new data directory: written by this PGlite, and every
 * migration it holds on disk unchanged. Otherwise null, and why (logged by the caller).
 */
export async function readBaseline(dir = BASELINE_DIR, migrationsDir = MIGRATIONS_DIR): Promise<{ dump: Blob; migrations: number } | { dump: null; why: string }> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return { dump: null, why: 'no baseline in prisma/baseline (npm ci builds it; `npm run db:baseline` does too)' };
  }
  if (manifest.pglite !== pgliteVersion()) return { dump: null, why: `the baseline was written by PGlite ${manifest.pglite}, this is ${pgliteVersion()}` };
  const onDisk = new Map((await readMigrations(migrationsDir)).map((m) => [m.name, m.checksum]));
  const stale = manifest.migrations.find((m) => onDisk.get(m.name) !== m.checksum);
  if (stale) return { dump: null, why: `the baseline holds migration ${stale.name}, which is not in prisma/migrations as it was` };
  try {
    return { dump: new Blob([await readFile(path.join(dir, DUMP))]), migrations: manifest.migrations.length };
  } catch {
    return { dump: null, why: 'the baseline\'s dump is missing' };
  }
}
